import pino from 'pino';
import { MikroORM, type EventSubscriber, type IMigrator, type Options } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { CallerVersion } from '../entities/caller-version';
import { JobRun } from '../entities/job-run';
import { Tenant } from '../entities/tenant';
import { migrationNames } from '../migrations/names';
import { RENAMED_MIGRATIONS } from '../migrations/renamed';
import { createLogger, type Logger } from '../logger';
import { BoundDriver } from './orm-bypass/bound-execute';
import { tenantFilter } from './tenancy';

/**
 * What the composition root hands the ORM (src/orm-composition.ts): every entity class, and the
 * subscribers every flush runs, in order (tenancy's stamps, the history, the outbox, and what the
 * domains add before them). Storage names none of them itself.
 */
export interface OrmComposition {
  readonly entities: readonly Function[];
  /** A fresh list per ORM: a subscriber may keep state for the flush under way. */
  subscribers(): EventSubscriber[];
}

export interface OrmOptions {
  clientUrl: string;
  composition: OrmComposition;
  /** Pool size: exactly one on the embedded database, which serialises queries anyway. */
  poolMax: number;
  debug?: boolean;
  /** The entity classes if not the composition's: (in a test of adding a group) those and more. */
  entities?: readonly Function[];
  /** Where the driver's own warnings go (a connection the server dropped, say); stderr if unset. */
  logger?: Logger;
}

/**
 * knex reports pool trouble through console.log unless given a log of its own; on stdout that
 * would break the CLI's one-JSON-object output and interleave with the service's JSON lines.
 */
function driverLog(logger: Logger = createLogger('warn', pino.destination(2))) {
  const log = logger.child({ source: 'knex' });
  return {
    warn: (message: unknown) => log.warn(String(message)),
    error: (message: unknown) => log.error(String(message)),
    deprecate: (method: unknown, alternative: unknown) =>
      log.warn(`${String(method)} is deprecated: use ${String(alternative)}`),
    debug: (message: unknown) => log.debug(String(message)),
  };
}

/**
 * Entities the tenant filter leaves alone: the tenant's own row and its caller version are keyed
 * by the tenant's id, and a job's runs are the deployment's (a job of the whole deployment has no
 * tenant), read by the scheduler's worker across tenants.
 */
const UNSCOPED: ReadonlySet<Function> = new Set([Tenant, CallerVersion, JobRun]);

export function ormOptions({
  clientUrl,
  poolMax,
  debug,
  logger,
  composition,
  entities = composition.entities,
}: OrmOptions): Options<PostgreSqlDriver> {
  const scoped = entities.filter((e) => !UNSCOPED.has(e)).map((e) => e.name);
  return {
    // Its statements in a request's transaction with bound parameters (bound-execute.ts says why).
    driver: BoundDriver as unknown as typeof PostgreSqlDriver,
    clientUrl,
    entities: [...entities],
    // Metadata comes from the decorators; discovery must not look for .ts sources at run time.
    discovery: { warnWhenNoEntities: true, requireEntitiesArray: true },
    pool: { min: 0, max: poolMax, idleTimeoutMillis: 30_000 },
    driverOptions: {
      connection: { connectionTimeoutMillis: 5_000, statement_timeout: 30_000 },
      log: driverLog(logger),
    },
    filters: tenantFilter(scoped),
    // In the composition's order (src/orm-composition.ts says why).
    subscribers: composition.subscribers(),
    // The list of migrations joins these when the migrator is first used (`migratorOf`).
    migrations: { transactional: true, allOrNothing: true, snapshot: false, silent: true },
    // Each request works on its own fork; the global manager must never hold request state.
    allowGlobalContext: false,
    forceUtcTimezone: true,
    serialization: { forceObject: true },
    debug: debug ?? false,
  };
}

export async function openOrm(options: OrmOptions): Promise<MikroORM<PostgreSqlDriver>> {
  return MikroORM.init<PostgreSqlDriver>(ormOptions(options));
}

/**
 * Brings the database up to the migrations list. A process whose database already records every
 * migration (each start but the first after a deploy) asks one question and is done: loading the
 * migrator (@mikro-orm/migrations, umzug and its command-line parser) was a third of the CPU of a
 * CLI command's start, and every command and service start migrates first.
 */
export async function migrate(orm: MikroORM, logger?: Logger): Promise<void> {
  const recorded = await recordedMigrations(orm);
  const pending = migrationNames.filter((name) => !recorded.has(name));
  if (pending.length === 0) return;
  logger?.info({ pending: pending.length }, 'applying migrations');
  await (await migratorOf(orm)).up();
  // Tables added by any migration get their row-level security policy (idempotent).
  await enableRowLevelSecurity(orm);
}

/**
 * The ORM's migrator, registered on first use rather than at start-up (`migrate` says why).
 * `Migrator.register` is the extension's own registration, as `extensions: [Migrator]` does it.
 */
export async function migratorOf(orm: MikroORM): Promise<IMigrator> {
  if (!orm.config.getExtension('@mikro-orm/migrator')) {
    const [{ Migrator }, { migrationsList }] = await Promise.all([
      import('@mikro-orm/migrations'),
      import('../migrations'),
    ]);
    orm.config.set('migrations', { ...orm.config.get('migrations'), migrationsList });
    Migrator.register(orm);
  }
  return orm.getMigrator();
}

/** Whether the database records every migration of the list as applied. */
export async function everyMigrationRecorded(orm: MikroORM): Promise<boolean> {
  const recorded = await recordedMigrations(orm);
  return migrationNames.every((name) => recorded.has(name));
}

/**
 * The migrations the database records as applied (none before the first migration), a migration
 * applied under a name it no longer has being recorded under its new name first.
 */
async function recordedMigrations(orm: MikroORM): Promise<Set<string>> {
  const connection = orm.em.getConnection();
  const [{ exists }] = await connection.execute<{ exists: boolean }[]>(
    `select to_regclass('mikro_orm_migrations') is not null as exists`,
  );
  if (!exists) return new Set();
  for (const [before, after] of Object.entries(RENAMED_MIGRATIONS))
    await connection.execute(
      `insert into mikro_orm_migrations (name, executed_at)
       select ?, executed_at from mikro_orm_migrations
       where name = ? and not exists (select 1 from mikro_orm_migrations where name = ?)`,
      [after, before, after],
    );
  const rows: { name: string }[] = await connection.execute(`select name from mikro_orm_migrations`);
  return new Set(rows.map((r) => r.name));
}

export async function enableRowLevelSecurity(orm: MikroORM): Promise<void> {
  await orm.em.getConnection().execute('select bms_enable_rls()');
}
