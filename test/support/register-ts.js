/* eslint-disable @typescript-eslint/no-require-imports */
'use strict';
/**
 * Lets a child process run the TypeScript sources directly (`node -r ./test/support/register-ts.js
 * src/main.ts`), compiled on load by swc with the project's .swcrc: the same compiler and settings
 * jest's transform (@swc/jest) uses, so a process test runs the code under test, not a stale build,
 * and pays no full `tsc` build.
 */
const fs = require('node:fs');
const { transformSync } = require('@swc/core');

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), { filename, swcrc: true });
  module._compile(code, filename);
};
