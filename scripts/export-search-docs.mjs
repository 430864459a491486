// Writes docs/search.md, each group's filterable and sortable fields and the ops per type, from
// the records' GraphQL types (a test fails when it is out of date). Run after `npm run build`.
import 'reflect-metadata';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import prettier from 'prettier';
import exported from '../dist/src/docs/export.js';

const out = path.resolve(process.argv[2] ?? 'docs/search.md');
const options = (await prettier.resolveConfig(out)) ?? {};
await writeFile(out, await prettier.format(await exported.searchDocs(), { ...options, filepath: out }));
console.log(`wrote ${path.relative(process.cwd(), out)}`);
