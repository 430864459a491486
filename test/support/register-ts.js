/* eslint-disable @typescript-eslint/no-require-imports */
'use strict';
/**
 * Lets a child process run the TypeScript sources directly (`node -r ./test/support/register-ts.js
 * src/main.ts`), compiled on load by swc with the project's .swcrc: the same compiler and settings
 * jest's transform (@swc/jest) uses, so a process test runs the code under test, not a stale build,
 * and pays no full `tsc` build. Written here rather than taken from a register package: it is one
 * hook over the @swc/core the project already has, and measured, compiling on load adds a fraction
 * of a second of CPU to a process's start, where a `tsc` build takes tens of seconds.
 */
const fs = require('node:fs');
const { transformSync } = require('@swc/core');

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), { filename, swcrc: true });
  module._compile(code, filename);
};
