import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { startHost } from '../../src/db/embedded';
import { embeddedHosts, runDatabaseUrl, TEMPLATE_SUFFIX } from './run-database';

/**
 * The database servers of the test run, migrated once. On a PostgreSQL server (DATABASE_URL) a
 * template database is made and migrated here, and each jest worker clones it (database.ts);
 * otherwise one in-memory PGlite host process per jest worker is started and migrated here
 * (PGlite cannot start inside jest's module sandbox, and one host runs one statement at a time,
 * so workers sharing a host would only queue behind each other). The migration runs in a child
 * process: no ORM is opened in this realm, whose MikroORM metadata would leak into the test
 * sandboxes.
 */
export default async function globalSetup(): Promise<void> {
  let urls: string[];
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
    urls = [template.url];
  } else {
    const hosts = await Promise.all(Array.from({ length: embeddedHosts() }, () => startHost('memory://')));
    (globalThis as any).__pgliteHosts = hosts.map((h) => h.child);
    urls = hosts.map((h) => `postgresql://postgres@127.0.0.1:${h.port}/postgres`);
    process.env.TEST_DATABASE_URLS = urls.join(',');
  }
  await Promise.all(
    urls.map((url) =>
      promisify(execFile)(
        process.execPath,
        ['-r', path.join(__dirname, 'register-ts.js'), path.join(__dirname, 'prepare-database.ts'), url],
        { env: { ...process.env, NODE_ENV: 'test' } },
      ).then(({ stdout, stderr }) => {
        process.stdout.write(stdout);
        process.stderr.write(stderr);
      }),
    ),
  );
}
