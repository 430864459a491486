import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * No document or comment names a section that does not exist. Two forms of reference are read in
 * every tracked document and source file: a document with a quoted section title after it
 * (`docs/events.md, "Configuration"`, `bench/README.md ("Start-up")`, several titles joined by
 * "and"), and a link with an anchor (`docs/events.md#configuration`, or `#configuration` within
 * a document). The title must be one of the named document's headings (letter case aside, a
 * closing parenthesis of the heading may be left out), and the anchor one of its headings'
 * anchors as GitHub makes them. No database: it reads files.
 */
const ROOT = path.resolve(__dirname, '../..');
const SELF = path.relative(ROOT, __filename);

const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
  .split('\0')
  .filter((f) => f && f !== SELF && existsSync(path.join(ROOT, f)));
const scanned = tracked.filter(
  (f) => (/\.(md|ts|js|mjs|cjs|sh)$/.test(f) && !f.endsWith('.d.ts')) || f === 'bms' || f.startsWith('.ci/'),
);

/** A document's headings: their titles (letter case aside) and their anchors. */
interface Headings {
  titles: Set<string>;
  anchors: Set<string>;
}
const headingsOf = new Map<string, Headings>();

const normal = (title: string) => title.replace(/\s+/g, ' ').trim().toLowerCase();

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
export function anchorOf(title: string): string {
  return title
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

function headings(file: string): Headings {
  let found = headingsOf.get(file);
  if (found) return found;
  found = { titles: new Set(), anchors: new Set() };
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of readFileSync(path.join(ROOT, file), 'utf8').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    // A reference may leave out a heading's closing parenthesis: "Against another checkout".
    found.titles.add(normal(m[1])).add(normal(m[1].replace(/\s*\([^()]*\)$/, '')));
    const anchor = anchorOf(m[1]);
    const n = seen.get(anchor) ?? 0;
    seen.set(anchor, n + 1);
    found.anchors.add(n ? `${anchor}-${n}` : anchor);
  }
  headingsOf.set(file, found);
  return found;
}

/** The tracked document a reference names, from the repository's root or the citing file's folder. */
function resolve(from: string, named: string): string | undefined {
  const candidates = [path.normalize(named), path.join(path.dirname(from), named)].map((p) =>
    p.split(path.sep).join('/'),
  );
  return candidates.find((c) => tracked.includes(c));
}

/** Comments' line openings (` * `, `// `, `# `) and line breaks read as one space. */
function flowed(text: string, markdown: boolean): string {
  return text.replace(markdown ? /[ \t]*\n[ \t]*/g : /[ \t]*\n[ \t]*(?:\*(?!\/)|\/\/|#)?[ \t]*/g, ' ');
}

// A document's path (or a link whose text or target is it), a comma or an opening parenthesis,
// then quoted titles joined by "and" or commas.
const TITLED =
  /([\w./-]*\w\.md)(?:\]\(([^)\s#]+)\))?,?\s*\(?((?:"[^"\n]{1,120}"(?:\s*(?:,|and|,\s*and)\s*(?="))?)+)/g;
// A link's or a path's anchor (`docs/events.md#events`), or `](#anchor)` within a document.
const ANCHORED = /([\w./-]*\w\.md)#([\w-]+)|\]\(#([\w-]+)\)/g;

interface Broken {
  at: string;
  names: string;
}

function brokenReferences(): { broken: Broken[]; checked: number } {
  const broken: Broken[] = [];
  let checked = 0;
  for (const file of scanned) {
    const raw = readFileSync(path.join(ROOT, file), 'utf8');
    if (raw.includes('\0')) continue;
    const markdown = file.endsWith('.md');
    const text = flowed(raw, markdown);
    for (const m of text.matchAll(TITLED)) {
      const target = resolve(file, m[2] ?? m[1]) ?? resolve(file, m[1]);
      if (!target) continue; // a file name in prose, not one of the repository's documents
      for (const [, title] of m[3].matchAll(/"([^"]+)"/g)) {
        checked++;
        if (!headings(target).titles.has(normal(title)))
          broken.push({ at: file, names: `${target}, "${title}"` });
      }
    }
    for (const m of text.matchAll(ANCHORED)) {
      const target = m[1] ? resolve(file, m[1]) : markdown ? file : undefined;
      if (!target) continue;
      const anchor = m[2] ?? m[3];
      checked++;
      if (!headings(target).anchors.has(anchor)) broken.push({ at: file, names: `${target}#${anchor}` });
    }
  }
  return { broken, checked };
}

describe('references to sections of the documents', () => {
  it('makes anchors as GitHub does', () => {
    expect(anchorOf('What `npm run bench` does')).toBe('what-npm-run-bench-does');
    expect(anchorOf('Against another checkout (`BENCH_COMPARE_DIR`)')).toBe(
      'against-another-checkout-bench_compare_dir',
    );
    expect(anchorOf("The outbox's cost on create")).toBe('the-outboxs-cost-on-create');
  });

  it('every section a document or comment names exists in the document it names', () => {
    const { broken, checked } = brokenReferences();
    // The scan finds the references the docs are known to make; a pattern that matched nothing
    // would pass without checking anything.
    expect(checked).toBeGreaterThan(50);
    expect(broken.map((b) => `${b.at}: ${b.names}`)).toEqual([]);
  });
});
