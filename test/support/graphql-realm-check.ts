/**
 * Loaded into each realm tests run in before graphql is (test/support/realm-runner.js: once per
 * jest worker, or per file for a file in jest's sandbox): graphql decides once, when its `instanceOf` is
 * first loaded, whether to check every type test for a second copy of graphql from another realm
 * (NODE_ENV other than production). In a CPU profile of a test server's start that check was
 * the largest single cost of building the schema and validating the REST rows' documents, paid
 * by every test file; the project has one pinned copy of graphql (`npm ls graphql`). Loading the module here
 * with production's setting puts the plain `instanceof` in the realm's module registry; every
 * other setting keeps its test value.
 */
const previous = process.env.NODE_ENV;
process.env.NODE_ENV = 'production';
try {
  // A require, not an import: it must run now, between the two settings of NODE_ENV.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('graphql/jsutils/instanceOf');
} finally {
  process.env.NODE_ENV = previous;
}
