// Writes the OpenAPI document the service serves at /api/v1/openapi.json to a file (default
// dist/openapi.json), for the linter and the client type generator. Run after `npm run build`.
import 'reflect-metadata';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import exported from '../dist/src/docs/export.js';

const out = path.resolve(process.argv[2] ?? 'dist/openapi.json');
const document = await exported.openApiDocument();
await mkdir(path.dirname(out), { recursive: true });
await writeFile(out, `${JSON.stringify(document, null, 2)}\n`);
console.log(`wrote ${path.relative(process.cwd(), out)}: ${Object.keys(document.paths).length} paths`);
