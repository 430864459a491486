// Writes the GraphQL schema as SDL to schema.graphql (CI regenerates it and fails on a
// difference). Run after `npm run build`.
import 'reflect-metadata';
import path from 'node:path';
import prettier from 'prettier';
import exported from '../dist/src/docs/export.js';
import { writeChanged } from './write-changed.mjs';

const out = path.resolve(process.argv[2] ?? 'schema.graphql');
const sdl = await exported.schemaSdl();
// Formatted as `prettier --check .` expects, so the lint step and the drift check agree.
const options = (await prettier.resolveConfig(out)) ?? {};
await writeChanged(out, await prettier.format(sdl, { ...options, filepath: out }));
