import type { MikroORM } from '@mikro-orm/core';
import type { Config } from '../config';
import { openEmbedded } from './embedded';
import { migrate, openOrm } from './orm';

export interface Database {
  orm: MikroORM;
  embedded: boolean;
  close(): Promise<void>;
}

/**
 * The database of this configuration, migrated: the PostgreSQL server at DATABASE_URL, or the
 * embedded one under DATA_DIR (one connection: PGlite runs one query at a time anyway).
 */
export async function openDatabase(config: Config, options: { migrate?: boolean } = {}): Promise<Database> {
  const embedded = config.databaseUrl ? undefined : await openEmbedded(config.dataDir);
  try {
    const orm = await openOrm({
      clientUrl: config.databaseUrl ?? embedded!.url,
      poolMax: embedded ? 1 : config.poolSize,
    });
    if (options.migrate !== false) {
      if (embedded || config.poolSize < 2) await migrate(orm);
      else await migrateAlone(orm);
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
 * second finds nothing left to do. The lock is held by a transaction on one pooled connection
 * while the migrator works on another (hence a pool of at least two). The embedded database
 * has one process by construction (its lock file).
 */
async function migrateAlone(orm: MikroORM): Promise<void> {
  await orm.em.fork().transactional(async (tx) => {
    await tx
      .getConnection()
      .execute(
        `select pg_advisory_xact_lock(hashtext('bms:migrations'))`,
        [],
        'all',
        tx.getTransactionContext(),
      );
    await migrate(orm);
  });
}
