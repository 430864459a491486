import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { Client as PgClient } from 'pg';
import { signToken } from '../../src/auth/jwt';
import { openOrm } from '../../src/db/orm';
import { createTenant } from '../../src/services/provisioning';
import {
  childEnv,
  freePort,
  freshServerDatabase,
  randomSecret,
  startService,
  type Running,
} from '../support/process';
import { ormComposition } from '../../src/orm-composition';

/**
 * What the deployment tests share: a fresh database on the PostgreSQL server at DATABASE_URL, the
 * machine's Redis under a key prefix of the test's own (deleted at the end), and a tenant whose
 * admin signs as many distinct tokens as a test needs (each token is a rate-limit key of its own).
 */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface Deployment {
  url: string;
  secret: string;
  redisPrefix: string;
  /** The tables' owner on the test database, for checking what is stored. */
  sql: PgClient;
  tenant(name: string): Promise<{ tenantId: string; userId: string; token(): string }>;
  close(): Promise<void>;
}

export async function deployment(label: string): Promise<Deployment> {
  const db = await freshServerDatabase(`${label}_${process.pid}`);
  const secret = randomSecret();
  const redisPrefix = `bms-test:${randomUUID()}:`;
  let sql: PgClient | undefined;
  let tokens = 0;
  return {
    url: db.url,
    secret,
    redisPrefix,
    get sql() {
      if (!sql) throw new Error('the database is not migrated yet: start a service first');
      return sql;
    },
    async tenant(name) {
      if (!sql) {
        sql = new PgClient({ connectionString: db.url });
        await sql.connect();
      }
      const orm = await openOrm({ composition: ormComposition, clientUrl: db.url, poolMax: 1 });
      try {
        const { tenant, admin } = await createTenant(orm.em, {
          name,
          adminEmail: `admin@${name.toLowerCase()}.test`,
        });
        return {
          tenantId: tenant.id,
          userId: admin.id,
          // A different lifetime makes a different token.
          token: () =>
            signToken(
              { secret },
              { sub: admin.id, email: admin.email, tenantId: tenant.id },
              3600 + ++tokens,
            ),
        };
      } finally {
        await orm.close(true);
      }
    },
    async close() {
      await sql?.end();
      await db.drop();
      const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
      try {
        const keys = await redis.keys(`${redisPrefix}*`);
        if (keys.length) await redis.del(...keys);
      } finally {
        redis.disconnect();
      }
    },
  };
}

/** Polls `probe` until it returns a value (not undefined), or fails after `timeoutMs`. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 60_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface ProcessPair {
  services: Running[];
  /** Each process's base URL, in the order of `services`. */
  bases: string[];
  /** Ends the processes still running and removes their data folder. */
  stop(): Promise<void>;
}

/**
 * Two service processes on the deployment's database and Redis, as behind a load balancer,
 * started together (on an empty database both migrate at start-up, one after the other).
 */
export async function startPair(d: Deployment, env: Record<string, string>): Promise<ProcessPair> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bms-deploy-'));
  const ports = [await freePort(), await freePort()];
  const shared = childEnv({
    DATABASE_URL: d.url,
    JWT_SECRET: d.secret,
    REDIS_URL,
    REDIS_KEY_PREFIX: d.redisPrefix,
    WEB_CONCURRENCY: '1',
    DATA_DIR: dataDir,
    ...env,
  });
  const services = await Promise.all(ports.map((port) => startService({ ...shared, PORT: String(port) })));
  return {
    services,
    bases: ports.map((port) => `http://127.0.0.1:${port}`),
    async stop() {
      for (const s of services)
        if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
      await Promise.all(services.map((s) => s.exited));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
