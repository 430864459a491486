import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { signToken } from '../src/auth/jwt';
import { enableRowLevelSecurity, migrate, openOrm } from '../src/db/orm';
import { createTenant } from '../src/services/provisioning';
import { ormComposition } from '../src/orm-composition';
import { createBenchDatabase, type BenchDatabase } from './database';

/**
 * What a scenario of its own (events, fan-out, history, push) starts from: a fresh database,
 * migrated with row-level security on, one tenant and its administrator, and the secret the
 * scenario's service signs with. `close` closes the ORM and drops the database unless BENCH_KEEP.
 */
export interface ScenarioTenant {
  db: BenchDatabase;
  orm: MikroORM;
  tenant: { id: string };
  admin: { id: string; email: string };
  secret: string;
  /** A day's token for a user of the tenant. */
  tokenOf(user: { id: string; email: string }): string;
  /** The administrator's token. */
  token: string;
  close(): Promise<void>;
}

export async function scenarioTenant(name: string): Promise<ScenarioTenant> {
  const db = await createBenchDatabase(
    process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  );
  const orm = await openOrm({ composition: ormComposition, clientUrl: db.url, poolMax: 2 });
  const close = async () => {
    await orm.close(true);
    if (process.env.BENCH_KEEP !== '1') await db.drop();
  };
  try {
    await migrate(orm);
    await enableRowLevelSecurity(orm);
    const { tenant, admin } = await createTenant(orm.em.fork(), {
      name,
      adminEmail: `admin@${name.toLowerCase()}.test`,
    });
    const secret = randomBytes(32).toString('hex');
    const tokenOf = (user: { id: string; email: string }) =>
      signToken({ secret }, { sub: user.id, email: user.email, tenantId: tenant.id }, 24 * 3600);
    return { db, orm, tenant, admin, secret, tokenOf, token: tokenOf(admin), close };
  } catch (err) {
    await close();
    throw err;
  }
}
