import { startHost } from '../../src/db/embedded';

/**
 * The database server of the test run. On a PostgreSQL server (DATABASE_URL) each jest worker
 * makes a fresh database of its own (see database.ts); otherwise an in-memory PGlite host process
 * is started here, because PGlite cannot start inside jest's module sandbox. No ORM is opened
 * here: MikroORM's metadata made in this realm would leak into the test sandboxes.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.DATABASE_URL) {
    process.env.TEST_DATABASE_PREFIX = `bms_test_${Date.now()}_${process.pid}`;
  } else {
    const { child, port } = await startHost('memory://');
    process.env.TEST_DATABASE_URL = `postgresql://postgres@127.0.0.1:${port}/postgres`;
    (globalThis as any).__pgliteHost = child;
  }
}
