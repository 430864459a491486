import type { MikroORM } from '@mikro-orm/core';
import { Client } from 'pg';
import { enableRowLevelSecurity, migrate, openOrm } from '../../src/db/orm';
import { schemaDrift } from '../../src/db/schema-drift';
import { ormComposition } from '../../src/orm-composition';
import { runDatabaseUrl, TEMPLATE_SUFFIX } from './run-database';

/**
 * The database a test file uses, migrated once per run (global-setup.ts runs prepare-database.ts):
 * on a PostgreSQL server each jest worker has a database of its own, cloned from the run's
 * migrated template; on the embedded database each worker has a PGlite host of its own (a
 * jest worker replaced for its memory keeps its JEST_WORKER_ID, and so its host). Within a
 * database, tests keep apart by working in tenants of their own. Migrating (and checking the schema
 * against the entities) for every file cost more than a second of each file's start.
 */
async function cloneWorkerDatabase(): Promise<string> {
  const { name, url } = runDatabaseUrl(`w${process.env.JEST_WORKER_ID ?? '1'}`);
  const admin = new Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount === 0) {
      const template = runDatabaseUrl(TEMPLATE_SUFFIX).name;
      try {
        await admin.query(`create database "${name}" template "${template}"`);
      } catch (err) {
        // A worker that replaced another (jest's memory limit) may race its predecessor's clone.
        if ((err as { code?: string }).code !== '42P04') throw err;
      }
    }
  } finally {
    await admin.end();
  }
  return url;
}

/**
 * Migrates as the service does at start-up. Entities not yet covered by a migration still get
 * their tables, so work in progress can be tested (and benchmarked: bench/run.ts uses this too);
 * test/foundation/migrations.test.ts fails until a migration covers them.
 */
export async function prepareSchema(url: string): Promise<void> {
  const orm = await openOrm({ composition: ormComposition, clientUrl: url, poolMax: 1 });
  try {
    await migrate(orm);
    const drift = await schemaDrift(orm, { safe: true });
    if (drift.trim()) await orm.getSchemaGenerator().execute(drift);
    await enableRowLevelSecurity(orm);
  } finally {
    await orm.close(true);
  }
}

/** The embedded host of this jest worker (global-setup.ts starts one per worker). */
function embeddedHostUrl(urls: string[]): string {
  const worker = Number(process.env.JEST_WORKER_ID ?? '1');
  return urls[(worker - 1) % urls.length];
}

let cached: Promise<string> | undefined;

export function workerDatabaseUrl(): Promise<string> {
  cached ??= process.env.TEST_DATABASE_URL
    ? Promise.resolve(process.env.TEST_DATABASE_URL)
    : process.env.TEST_DATABASE_URLS
      ? Promise.resolve(embeddedHostUrl(process.env.TEST_DATABASE_URLS.split(',')))
      : cloneWorkerDatabase();
  return cached;
}

/**
 * How many sessions of the test database hold a transaction open while doing nothing: a worker
 * waiting on something outside the database (a mail server, a file store) must hold none.
 */
export async function idleTransactions(orm: MikroORM): Promise<number> {
  const [row] = await orm.em.getConnection().execute<{ n: number }[]>(
    `select count(*)::int as n from pg_stat_activity
       where datname = current_database() and state like 'idle in transaction%'`,
  );
  return row.n;
}
