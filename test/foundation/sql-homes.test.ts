import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/**
 * SQL text has two homes: the database layer (`src/db/`, with the migrations) and modules named
 * as repositories (`*-repository.ts`), each the one place its tables' statements are written and
 * their rows typed. Everything else reaches the database through the ORM or a repository, so a
 * reader looking for what touches a table finds it by name.
 */
const root = join(__dirname, '..', '..');
const src = join(root, 'src');

const SQL =
  /\b(select\s[\s\S]*?\bfrom\s|insert\s+into\s|update\s+"?\w+"?(\s+\w+)?\s+set\s|delete\s+from\s|on\s+conflict\b|for\s+update\b|skip\s+locked\b|set_config\s*\(|pg_advisory|pg_notify\s*\(|truncate\s+(table\s+)?"?\w+|create\s+(table|index|policy)\b|alter\s+table\b)/i;

export function isSqlHome(file: string): boolean {
  const path = relative(src, file).split('\\').join('/');
  return path.startsWith('db/') || path.startsWith('migrations/') || /(^|[/-])repository\.ts$/.test(path);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The string and template literals of a file whose text reads as SQL, with their line. */
export function sqlTexts(file: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: { line: number; text: string }[] = [];
  const visit = (node: ts.Node): void => {
    let text: string | undefined;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = node.text;
    else if (ts.isTemplateExpression(node))
      text = [node.head.text, ...node.templateSpans.map((s) => ` $x ${s.literal.text}`)].join('');
    if (text !== undefined && SQL.test(text)) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart());
      found.push({ line: line + 1, text: text.replace(/\s+/g, ' ').slice(0, 80) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('SQL text', () => {
  it('is written only in src/db/, the migrations and modules named *-repository.ts', () => {
    const outside = sourceFiles(src)
      .filter((file) => !isSqlHome(file))
      .flatMap((file) => sqlTexts(file).map(({ line, text }) => `${relative(root, file)}:${line}: ${text}`));
    expect(outside).toEqual([]);
  });

  it('is recognised by the check (so the check can fail)', () => {
    const probe = join(src, 'rest', 'router.ts');
    expect(isSqlHome(probe)).toBe(false);
    expect(isSqlHome(join(src, 'jobs', 'job-run-repository.ts'))).toBe(true);
    expect(SQL.test('select id from tenant where id = $1')).toBe(true);
    expect(SQL.test('update job_run set finished_at = now()')).toBe(true);
    expect(SQL.test('Select the records to show')).toBe(false);
  });
});
