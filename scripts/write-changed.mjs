// Writes a generated file only when its text changes: CI's lint step reads these files while the
// generated-files step remakes them beside it (.ci/run), and an unchanged file is never rewritten
// under a reader.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export async function writeChanged(file, text) {
  const before = await readFile(file, 'utf8').catch(() => undefined);
  const name = path.relative(process.cwd(), file);
  if (before === text) {
    console.log(`${name} unchanged`);
    return;
  }
  await writeFile(file, text);
  console.log(`wrote ${name}`);
}
