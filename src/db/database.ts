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
    if (options.migrate !== false) await migrate(orm);
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
