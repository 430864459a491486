/* eslint-disable @typescript-eslint/no-require-imports */
'use strict';
/**
 * Jest's test runner for this project (jest.config.js `testRunner`): jest-circus, with jest's own
 * adapter, except that the test file, what it imports and circus itself run in the jest worker's
 * own realm, loaded by Node's require (TypeScript compiled by register-ts.js), instead of in a
 * fresh module registry and global object of jest's per file. Packages under node_modules are so
 * loaded once per worker and shared by the files it runs; the project's own modules (src/, test/)
 * and circus's state are made afresh for every file and forgotten after it. Evaluating every
 * package module of the service again for every file was the largest part of a file's start.
 *
 * What jest's sandbox gave every file and this runner gives it too:
 * - the project's modules, fresh: their module-level state (settings read from the environment
 *   once, caches, counters) is the file's own;
 * - the registries that decorators fill in the packages (type-graphql, class-validator and
 *   MikroORM keep them on globalThis or in a static), emptied before each file, as if the
 *   package were loaded afresh: the file's classes are the only ones declared;
 * - process.env, restored after each file (files set WEBHOOK_ALLOW_PRIVATE_TARGETS and the like);
 * - spies (jest.spyOn) and jest.setTimeout / jest.retryTimes, undone after each file;
 * - console output, captured by jest's console for the file as before.
 * What it does not give: module mocks (jest.mock and the like) and fake timers, which act on a
 * module registry and a global object of jest's; the `jest` object here refuses them with a
 * message. A file that needs them says `@jest-sandbox` in its first comment, and runs in jest's
 * sandbox as jest runs it by default.
 *
 * expect and circus come from the same realm as the test's values, so `expect.any(String)` and
 * `toThrow(SomeError)` compare the constructors a test file sees.
 */
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const packages = path.join(root, 'node_modules') + path.sep;
const isProjectModule = (file) => file.startsWith(root + path.sep) && !file.startsWith(packages);

/** jest's adapter for jest-circus, and the module it loads per file for circus's state. */
const circusRunner = require.resolve('jest-circus/runner');
const { default: jestAdapter } = require(circusRunner);
const CIRCUS_INITIALIZER = path.join(path.dirname(circusRunner), 'jestAdapterInit.js');
/** Where jest-circus keeps a file's handlers and settings on the global object it runs in. */
const CIRCUS_GLOBALS = [
  'EVENT_HANDLERS',
  'TEST_TIMEOUT_SYMBOL',
  'RETRY_TIMES',
  'RETRY_IMMEDIATELY',
  'WAIT_BEFORE_RETRY',
  'LOG_ERRORS_BEFORE_RETRY',
].map((name) => Symbol.for(name));
/** jest-mock as jest-runtime has it, for jest.fn and jest.spyOn. */
const { ModuleMocker } = require(require.resolve('jest-mock', { paths: [require.resolve('jest-runtime')] }));

/** Loaded first into every realm a test runs in. */
const SETUP = [require.resolve('reflect-metadata'), path.join(__dirname, 'graphql-realm-check.ts')];

let realmReady = false;
function prepareRealm() {
  if (realmReady) return;
  require('./register-ts.js');
  for (const file of SETUP) require(file);
  realmReady = true;
}

/** Empties what a file's run filled, as a fresh module registry and global object would be. */
function forgetFile() {
  for (const file of Object.keys(require.cache)) if (isProjectModule(file)) delete require.cache[file];
  delete require.cache[CIRCUS_INITIALIZER];
  for (const key of Object.getOwnPropertySymbols(globalThis))
    if (CIRCUS_GLOBALS.includes(key) || key.description === 'JEST_STATE_SYMBOL') delete globalThis[key];
  delete globalThis.TypeGraphQLMetadataStorage;
  delete globalThis.classValidatorMetadataStorage;
  const mikroOrm = require.cache[require.resolve('@mikro-orm/core')];
  if (mikroOrm) {
    mikroOrm.exports.MetadataStorage.clear();
    mikroOrm.exports.EntitySchema.REGISTRY.clear();
  }
}

function restoreEnvironment(saved) {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
}

/** Maps the stack frames of files register-ts.js compiled to their TypeScript lines. */
let sourceMaps;
function mapStackTraces() {
  // The copy jest-runner installed for the worker: its handlers are the ones consulted.
  sourceMaps ??= require(require.resolve('source-map-support', { paths: [require.resolve('jest-runner')] }));
  // jest resets the handlers after every file (and installs its own again before the next).
  sourceMaps.install({
    retrieveSourceMap(file) {
      if (!isProjectModule(file) || !file.endsWith('.ts')) return null;
      const map = require('./register-ts.js').sourceMapOf(file);
      return map ? { url: file, map } : null;
    },
  });
}

/** Parts of the `jest` object that act on jest's module registry or global object. */
function sandboxOnly(name) {
  return () => {
    throw new Error(
      `jest.${name} acts on jest's module sandbox, which this file does not run in: ` +
        'add @jest-sandbox to its first comment (test/support/realm-runner.js)',
    );
  };
}

/** The `jest` object of a file run in this realm. */
function jestObject(mocker) {
  const jest = {
    fn: mocker.fn.bind(mocker),
    spyOn: mocker.spyOn.bind(mocker),
    replaceProperty: mocker.replaceProperty.bind(mocker),
    mocked: mocker.mocked.bind(mocker),
    isMockFunction: mocker.isMockFunction.bind(mocker),
    clearAllMocks: () => (mocker.clearAllMocks(), jest),
    resetAllMocks: () => (mocker.resetAllMocks(), jest),
    restoreAllMocks: () => (mocker.restoreAllMocks(), jest),
    setTimeout: (timeout) => ((globalThis[Symbol.for('TEST_TIMEOUT_SYMBOL')] = timeout), jest),
    retryTimes: (times, options) => {
      globalThis[Symbol.for('RETRY_TIMES')] = times;
      globalThis[Symbol.for('LOG_ERRORS_BEFORE_RETRY')] = options?.logErrorsBeforeRetry;
      globalThis[Symbol.for('WAIT_BEFORE_RETRY')] = options?.waitBeforeRetry;
      globalThis[Symbol.for('RETRY_IMMEDIATELY')] = options?.retryImmediately;
      return jest;
    },
  };
  for (const name of [
    'mock',
    'doMock',
    'unmock',
    'dontMock',
    'deepUnmock',
    'unstable_mockModule',
    'createMockFromModule',
    'requireActual',
    'requireMock',
    'isolateModules',
    'isolateModulesAsync',
    'resetModules',
    'enableAutomock',
    'disableAutomock',
    'useFakeTimers',
    'useRealTimers',
  ])
    jest[name] = sandboxOnly(name);
  return jest;
}

function wantsSandbox(testPath) {
  const first = /^\s*\/\*([\s\S]*?)\*\//.exec(fs.readFileSync(testPath, 'utf8'));
  return !!first && /@jest-sandbox\b/.test(first[1]);
}

module.exports = async function realmRunner(
  globalConfig,
  config,
  environment,
  runtime,
  testPath,
  sendMessageToJest,
) {
  if (wantsSandbox(testPath)) {
    for (const file of SETUP) runtime.requireModule(file);
    return jestAdapter(globalConfig, config, environment, runtime, testPath, sendMessageToJest);
  }
  prepareRealm();
  forgetFile();
  mapStackTraces();
  const mocker = new ModuleMocker(globalThis);
  globalThis.jest = jestObject(mocker);
  const savedEnvironment = { ...process.env };
  const savedConsole = globalThis.console;
  globalThis.console = environment.global.console;
  // What jest's adapter asks of a runtime and an environment, answered from this realm: circus's
  // state module loaded afresh, the test file and setup files by Node's require.
  const realmRuntime = {
    requireInternalModule: (file) => require(file),
    requireModule: (file) => require(file),
    unstable_shouldLoadAsEsm: () => false,
    setGlobalsForRuntime: () => undefined,
    enterTestCode: () => runtime.enterTestCode(),
    leaveTestCode: () => runtime.leaveTestCode(),
    resetModules: sandboxOnly('resetModules'),
    clearAllMocks: () => mocker.clearAllMocks(),
    resetAllMocks: () => mocker.resetAllMocks(),
    restoreAllMocks: () => mocker.restoreAllMocks(),
  };
  try {
    return await jestAdapter(
      globalConfig,
      config,
      { global: globalThis },
      realmRuntime,
      testPath,
      sendMessageToJest,
    );
  } finally {
    mocker.restoreAllMocks();
    globalThis.console = savedConsole;
    restoreEnvironment(savedEnvironment);
    forgetFile();
  }
};
