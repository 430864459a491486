/* eslint-disable @typescript-eslint/no-require-imports */
'use strict';
/**
 * Lets a child process run the TypeScript sources directly (`node -r ./test/support/register-ts.js
 * src/main.ts`), compiled on load by swc with the project's .swcrc: the same compiler and settings
 * jest's transform (@swc/jest) uses, so a process test runs the code under test, not a stale build,
 * and pays no full `tsc` build. Written here rather than taken from a register package: it is one
 * hook over the @swc/core the project already has. Each file's output is kept under
 * node_modules/.cache, keyed by its path, its text, the .swcrc and swc's version, as jest keeps
 * its transforms: compiling on load was half the CPU of a CLI command's start, and the suite
 * starts such processes dozens of times.
 */
const fs = require('node:fs');
const path = require('node:path');
const { createHash } = require('node:crypto');

const root = path.resolve(__dirname, '../..');
const cacheDir = path.join(root, 'node_modules', '.cache', 'bms-register-ts');
// swc itself is loaded only to compile: loading its native binding is a good part of a start.
const swcVersion = JSON.parse(fs.readFileSync(require.resolve('@swc/core/package.json'), 'utf8')).version;
const settings = `${swcVersion}\0${fs.readFileSync(path.join(root, '.swcrc'), 'utf8')}`;

/** The JavaScript swc makes of a TypeScript file, from the cache when it has it. */
function compiled(filename, source) {
  const key = createHash('sha256').update(settings).update('\0').update(filename).update('\0').update(source);
  const cached = path.join(cacheDir, `${key.digest('hex')}.js`);
  try {
    return fs.readFileSync(cached, 'utf8');
  } catch {
    const code = require('@swc/core').transformSync(source, { filename, swcrc: true }).code;
    // Written aside and renamed, so a process reading it at the same moment sees all or nothing.
    const partial = `${cached}.${process.pid}`;
    try {
      fs.mkdirSync(cacheDir, { recursive: true });
      fs.writeFileSync(partial, code);
      fs.renameSync(partial, cached);
    } catch {
      // A cache that cannot be written only costs the next start its compile.
    }
    return code;
  }
}

require.extensions['.ts'] = (module, filename) => {
  module._compile(compiled(filename, fs.readFileSync(filename, 'utf8')), filename);
};

const INLINE_MAP = /\/\/# sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)\s*$/;

/**
 * The source map of a file as compiled (.swcrc writes it inline), for a stack trace's frames to
 * name TypeScript lines (test/support/realm-runner.js hands it to source-map-support).
 */
exports.sourceMapOf = (filename) => {
  const match = INLINE_MAP.exec(compiled(filename, fs.readFileSync(filename, 'utf8')));
  return match ? Buffer.from(match[1], 'base64').toString('utf8') : undefined;
};
