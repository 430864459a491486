// Fails when a tracked file refers to a path outside the repository: a clone has nothing beside
// it, so a test, script or document that reads or cites `../something` beyond the root breaks
// (or misleads) on a user's machine. Relative paths are resolved from the file that holds them;
// for compiled sources (src/ and bench/ also run from dist/) the compiled location is tried too.
// Documents are also held to the files they name: a path in backticks or a link that names no file
// of the repository (nor one that a build or an install makes) is reported.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((f) => f && !/(^|\/)package-lock\.json$|\.(png|jpe?g|gif|ico|woff2?)$/.test(f));

// A run of `../` segments followed by a name: the form a path outside the file's folder takes.
const relative = /(?<![\w.])((?:\.\.\/)+)([\w@.-]+)/g;
const inside = (p) => p === root || p.startsWith(root + path.sep);

const findings = [];
for (const file of files) {
  const text = readFileSync(path.join(root, file), 'utf8');
  if (text.includes('\0')) continue;
  const dirs = [path.dirname(path.join(root, file))];
  // TypeScript under src/ and bench/ also runs from dist/<same path>.
  if (/^(src|bench)\//.test(file)) dirs.push(path.dirname(path.join(root, 'dist', file)));
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(relative)) {
      if (dirs.every((d) => !inside(path.resolve(d, m[1] + m[2]))))
        findings.push(`${file}:${i + 1}: ${m[0]}`);
    }
  });
}
// Paths that a clone does not hold until it is built, installed or run.
const made = /^(dist|node_modules|\.data|coverage)\//;
const named = /`([\w.-]+(?:\/[\w.-]+)+\.[a-z]{1,5})`|\]\((?!https?:|#|mailto:)([^)#\s]+)/g;
for (const file of files.filter((f) => f.endsWith('.md'))) {
  const text = readFileSync(path.join(root, file), 'utf8');
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(named)) {
      const p = m[1] ?? m[2];
      if (made.test(p)) continue;
      const candidates = [path.resolve(root, path.dirname(file), p), path.resolve(root, p)];
      if (!candidates.some((c) => inside(c) && existsSync(c)))
        findings.push(`${file}:${i + 1}: ${p} does not exist`);
    }
  });
}
// A Markdown document named without a path is cited too: it must be one the repository
// holds, or the reader is sent to a file only its authors had.
const documents = new Set(files.filter((f) => f.endsWith('.md')).map((f) => path.basename(f)));
const documentName = /(?<![\w./-])([\w-]+\.md)\b/g;
for (const file of files) {
  const text = readFileSync(path.join(root, file), 'utf8');
  if (text.includes('\0')) continue;
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(documentName))
      if (!documents.has(m[1]))
        findings.push(`${file}:${i + 1}: ${m[1]} is not a document of the repository`);
  });
}
if (findings.length) {
  console.error(
    `${findings.length} reference(s) to paths outside the repository or to files it does not hold:`,
  );
  for (const f of findings) console.error(`  ${f}`);
  process.exit(1);
}
console.log(`self-contained: ${files.length} tracked files refer to nothing outside the repository`);
