/* eslint-disable @typescript-eslint/no-require-imports */
'use strict';
/**
 * Lets a child process of a test run the TypeScript sources (`node -r ./test/support/register-ts.js
 * script.ts`), compiled by swc with the project's .swcrc as jest compiles them.
 */
const fs = require('node:fs');
const { transformSync } = require('@swc/core');

require.extensions['.ts'] = function compile(module, filename) {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), { filename, swcrc: true });
  module._compile(code, filename);
};
