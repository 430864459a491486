// Tests run over HTTP against a real PostgreSQL: DATABASE_URL when set, otherwise embedded
// PGlite hosts started in globalSetup (PGlite cannot start inside jest's module sandbox), one per
// worker: a host runs one statement at a time, so workers sharing one would queue behind it.
const embedded = !process.env.DATABASE_URL;
const workers = Number(process.env.TEST_WORKERS) || 2;
process.env.TEST_EMBEDDED_HOSTS = String(workers);
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest'],
    // openapi-backend's reference parser ships as ES modules only; jest runs CommonJS.
    '@apidevtools/json-schema-ref-parser/.+\\.js$': ['@swc/jest', { module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: [
    '/node_modules/(?!@apidevtools/json-schema-ref-parser/|openapi-backend/node_modules/@apidevtools/json-schema-ref-parser/)',
  ],
  // Each test file runs in its jest worker's own realm, packages loaded once per worker, the
  // project's modules afresh per file (test/support/realm-runner.js says what it keeps apart).
  testRunner: '<rootDir>/test/support/realm-runner.js',
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  maxWorkers: workers,
  // Jest runs a single worker in its own process (in band) unless a memory limit is set; there the
  // servers, schemas and ORM metadata of ~80 files pile up in one heap until it runs out. With a
  // limit, a worker that ends a file above it is replaced by a fresh one.
  workerIdleMemoryLimit: '1GB',
  // Every query of a worker waits its turn on its embedded host, so a file's start-up
  // (a fresh server, tenants, data built through the API) takes longer there on a busy machine.
  testTimeout: embedded ? 120000 : 30000,
};
