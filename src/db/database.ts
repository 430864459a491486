import type { MikroORM } from '@mikro-orm/core';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { openEmbedded } from './embedded';
import { everyMigrationRecorded, migrate, openOrm } from './orm';
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
  options: { migrate?: boolean; logger?: Logger } = {},
): Promise<Database> {
  const embedded = config.databaseUrl ? undefined : await openEmbedded(config.dataDir);
  try {
    const clientUrl = config.databaseUrl ?? embedded!.url;
    const orm = await openOrm({ clientUrl, poolMax: embedded ? 1 : config.poolSize, logger: options.logger });
    if (options.migrate !== false) {
      if (embedded) await migrate(orm);
      else await migrateAlone(orm, clientUrl);
    }
    return {
      orm,
      embedded: Boolean(embedded),
      async close() {
        await orm.close(true);
        await embedded?.stop();
      },
    };
  } catch (err) {
    await embedded?.stop();
    throw err;
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
async function migrateAlone(orm: MikroORM, clientUrl: string): Promise<void> {
  if (await everyMigrationRecorded(orm)) return;
  const lock = await sessionsFor(clientUrl).open();
  try {
    await lock.query(`select pg_advisory_lock(hashtext('bms:migrations'))`);
    await migrate(orm);
    await lock.query(`select pg_advisory_unlock(hashtext('bms:migrations'))`);
  } finally {
    await lock.end();
  }
}
