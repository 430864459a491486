import { fork } from 'node:child_process';
import path from 'node:path';
import type { BenchConfig } from './config';
import { createBenchDatabase, type BenchDatabase } from './database';
import type { LoadedTenant, TenantShape } from './load-data';
import { sameMigrations as sameMigrationsAs, startService, type Server } from './processes';

/**
 * The database the compared checkout (BENCH_COMPARE_DIR) runs on. When its migrations are these
 * (processes.ts, `sameMigrations`), it shares this run's database, rows and all, and migrates
 * nothing. When they differ (a build from before a schema change), it gets a database of its own
 * on the same server, migrated and loaded by its own code (bench/load-compared.ts) with the same
 * tenant shapes and seeds, so each build meets the data as it stores it. BENCH_COMPARE_DATABASE=own gives it its
 * own database even when the migrations match; `shared` refuses to run when they differ.
 */
export interface ComparedDatabase {
  /** True when the compared checkout has a database of its own. */
  own: boolean;
  url: string;
  name: string;
  /** Its tenants, in the order asked (its own database only), once loaded. */
  tenants?: Promise<LoadedTenant[]>;
  drop(): Promise<void>;
}

export interface ComparedLoad {
  tenants: { shape: TenantShape; seed: number }[];
  /** Tables to vacuum and analyse after the load, as this run does its own. */
  tables: string[];
  poolMax: number;
}

export async function comparedDatabase(
  cfg: BenchConfig,
  ours: BenchDatabase,
  load: ComparedLoad,
): Promise<ComparedDatabase> {
  const root = path.resolve(cfg.compareDir!);
  const sameMigrations = sameMigrationsAs(root);
  const own = cfg.compareDatabase === 'own' || (cfg.compareDatabase === 'auto' && !sameMigrations);
  if (!own) {
    if (!sameMigrations)
      throw new Error(
        `BENCH_COMPARE_DIR ${root}: its migrations differ from these, so it cannot share the database (BENCH_COMPARE_DATABASE=shared)`,
      );
    return { own, url: ours.url, name: ours.name, drop: async () => undefined };
  }
  if (ours.embedded)
    throw new Error('BENCH_COMPARE_DIR with a database of its own needs a PostgreSQL server (DATABASE_URL)');
  const db = await createBenchDatabase(cfg.serverUrl, `${ours.name}_compared`);
  return { own, url: db.url, name: db.name, tenants: loadCompared(root, db.url, load), drop: db.drop };
}

/** The compared checkout's migrations and loader, in a child process (bench/load-compared.ts). */
function loadCompared(root: string, url: string, load: ComparedLoad): Promise<LoadedTenant[]> {
  const child = fork(path.join(__dirname, 'load-compared.js'), [], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  child.send({ root, url, ...load });
  return new Promise((resolve, reject) => {
    child.once('message', (m: { tenants: LoadedTenant[] }) => resolve(m.tenants));
    child.once('exit', (code) =>
      reject(new Error(`loading the compared checkout's database exited with code ${code}`)),
    );
  });
}

/** The compared checkout's service, on its database. */
export function startCompared(cfg: BenchConfig, db: ComparedDatabase): Promise<Server> {
  return startService({
    root: path.resolve(cfg.compareDir!),
    databaseUrl: db.url,
    jwtSecret: cfg.jwtSecret,
    poolSize: cfg.poolSize,
    logLevel: cfg.logLevel,
  });
}
