import type { MikroORM } from '@mikro-orm/core';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { checkNotStopped, StartStopped } from '../stop-signals';
import { openEmbedded } from './embedded';
import { everyMigrationRecorded, migrate, openOrm, type OrmComposition } from './orm';
import { sessionsFor } from './sessions';

export interface Database {
  orm: MikroORM;
  embedded: boolean;
  close(): Promise<void>;
}

/**
 * The database of this configuration, migrated: the PostgreSQL server at DATABASE_URL, or the
 * embedded one under DATA_DIR (one connection: PGlite runs one query at a time anyway).
 */
export async function openDatabase(
  config: Config,
  options: { composition: OrmComposition; migrate?: boolean; logger?: Logger; signal?: AbortSignal },
): Promise<Database> {
  const { signal, logger } = options;
  const embedded = config.databaseUrl ? undefined : await openEmbedded(config.dataDir, signal);
  let orm: MikroORM | undefined;
  // A stop asked for from here on: the embedded host stops (rolling back what is under way, as a
  // dropped connection does) and the pool closes, so the statement running fails and the start
  // ends without having changed anything half-way.
  const abort = () => {
    void embedded?.stop();
    void orm?.close(true);
  };
  signal?.addEventListener('abort', abort, { once: true });
  try {
    checkNotStopped(signal);
    const clientUrl = config.databaseUrl ?? embedded!.url;
    orm = await openOrm({
      clientUrl,
      poolMax: embedded ? 1 : config.poolSize,
      logger,
      composition: options.composition,
    });
    checkNotStopped(signal);
    if (options.migrate !== false) {
      if (embedded) await migrate(orm, logger);
      else await migrateAlone(orm, clientUrl, logger, signal);
    }
    checkNotStopped(signal);
    signal?.removeEventListener('abort', abort);
    const opened = orm;
    return {
      orm: opened,
      embedded: Boolean(embedded),
      async close() {
        await opened.close(true);
        await embedded?.stop();
      },
    };
  } catch (err) {
    signal?.removeEventListener('abort', abort);
    await orm?.close(true).catch(() => undefined);
    await embedded?.stop();
    throw signal?.aborted ? new StartStopped() : err;
  }
}

/**
 * Migrates while holding an advisory lock, so that processes started together on one server
 * (several instances, or a restart overlapping the old one) migrate one after the other: the
 * second finds nothing left to do. The lock is a session lock on a connection of its own, held
 * outside any transaction: a transaction held open while the migrator works would stall a server
 * that runs one session for all its clients (the embedded database's socket host, which other
 * processes reach through DATABASE_URL). A process that dies releases it with its connection.
 * A database that already records every migration needs neither the lock nor its connection.
 * Should the lock's connection be lost meanwhile (the server restarted), the unlock fails and so
 * does the start: the lock no longer kept another process out.
 */
async function migrateAlone(
  orm: MikroORM,
  clientUrl: string,
  logger: Logger | undefined,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (await everyMigrationRecorded(orm)) return;
  const lock = await sessionsFor(clientUrl).open();
  // A stop while waiting for another process's migrations ends the wait too.
  const abort = () => void lock.end();
  signal?.addEventListener('abort', abort, { once: true });
  try {
    await lock.query(`select pg_advisory_lock(hashtext('bms:migrations'))`);
    await migrate(orm, logger);
    await lock.query(`select pg_advisory_unlock(hashtext('bms:migrations'))`);
  } finally {
    signal?.removeEventListener('abort', abort);
    await lock.end().catch(() => undefined);
  }
}
