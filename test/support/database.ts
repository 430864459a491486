import { Client } from 'pg';
import { enableRowLevelSecurity, migrate, openOrm } from '../../src/db/orm';
import { schemaDrift } from '../../src/db/schema-diff';

/**
 * The database this jest worker uses, migrated: on a PostgreSQL server a fresh database of the
 * worker's own; on the embedded database the one shared database (one worker there; tests keep
 * apart by working in tenants of their own).
 */
let cached: Promise<string> | undefined;

async function createWorkerDatabase(): Promise<string> {
  const server = new URL(process.env.DATABASE_URL!);
  const name = `${process.env.TEST_DATABASE_PREFIX}_w${process.env.JEST_WORKER_ID ?? '1'}`;
  const admin = new Client({ connectionString: server.toString() });
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount === 0) await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(server.toString());
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Migrates as the service does at start-up. Entities not yet covered by a migration still get
 * their tables, so work in progress can be tested (and benchmarked: bench/run.ts uses this too);
 * test/foundation/migrations.test.ts fails until a migration covers them.
 */
export async function prepareSchema(url: string): Promise<void> {
  const orm = await openOrm({ clientUrl: url, poolMax: 1 });
  try {
    await migrate(orm);
    const drift = await schemaDrift(orm, { safe: true });
    if (drift.trim()) await orm.getSchemaGenerator().execute(drift);
    await enableRowLevelSecurity(orm);
  } finally {
    await orm.close(true);
  }
}

export function workerDatabaseUrl(): Promise<string> {
  cached ??= (async () => {
    const url = process.env.TEST_DATABASE_URL ?? (await createWorkerDatabase());
    await prepareSchema(url);
    return url;
  })();
  return cached;
}
