import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { Client } from 'pg';
import { startHost } from '../../src/db/embedded';
import { runDatabaseUrl, TEMPLATE_SUFFIX } from './run-database';

/**
 * The database server of the test run, migrated once. On a PostgreSQL server (DATABASE_URL) a
 * template database is made and migrated here, and each jest worker clones it (database.ts);
 * otherwise an in-memory PGlite host process is started and migrated here, because PGlite cannot
 * start inside jest's module sandbox. The migration runs in a child process: no ORM is opened in
 * this realm, whose MikroORM metadata would leak into the test sandboxes.
 */
export default async function globalSetup(): Promise<void> {
  let url: string;
  if (process.env.DATABASE_URL) {
    process.env.TEST_DATABASE_PREFIX = `bms_test_${Date.now()}_${process.pid}`;
    const template = runDatabaseUrl(TEMPLATE_SUFFIX);
    const admin = new Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      await admin.query(`create database "${template.name}"`);
    } finally {
      await admin.end();
    }
    url = template.url;
  } else {
    const { child, port } = await startHost('memory://');
    (globalThis as any).__pgliteHost = child;
    url = process.env.TEST_DATABASE_URL = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  }
  execFileSync(
    process.execPath,
    ['-r', path.join(__dirname, 'register-ts.js'), path.join(__dirname, 'prepare-database.ts'), url],
    { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
  );
}
