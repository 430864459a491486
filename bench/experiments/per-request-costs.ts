import 'reflect-metadata';
import { createSecretKey } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { raw, type EntityManager, type MikroORM } from '@mikro-orm/core';
import { openOrm } from '../../src/db/orm';
import { withTenant } from '../../src/db/tenant-transaction';
import { Feature, FeatureStatus } from '../../src/entities/hr/feature';
import { TenantRole } from '../../src/entities/tenant-role';
import { User } from '../../src/entities/user';

/**
 * Quick experiments behind the optimisation proposals, run against a database the bench kept
 * (BENCH_KEEP=1): `node dist/bench/experiments/per-request-costs.js <database url>`. Nothing
 * here is wired into the service; each measurement times the current way against the proposed
 * one, sequentially on one connection, after a warm-up.
 */
const url = process.argv[2];
if (!url) throw new Error('usage: per-request-costs <database url of a kept bench database>');

async function perCall(label: string, n: number, work: () => Promise<unknown> | unknown): Promise<number> {
  for (let i = 0; i < Math.min(50, n); i++) await work();
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await work();
  const micros = Number(process.hrtime.bigint() - start) / 1000 / n;
  console.log(`  ${label.padEnd(72)} ${micros.toFixed(0).padStart(7)} µs`);
  return micros;
}

async function jwtVerify() {
  console.log('\n1. Token verification (src/auth/jwt.ts verifyToken):');
  const secret = 'x'.repeat(64);
  const token = jwt.sign({ email: 'a@b.c', tenantId: 't' }, secret, { algorithm: 'HS256', subject: 's' });
  const key = createSecretKey(Buffer.from(secret));
  await perCall('jwt.verify with the secret as a string (now)', 5000, () =>
    jwt.verify(token, secret, { algorithms: ['HS256'] }),
  );
  await perCall('jwt.verify with a KeyObject made once (proposed)', 5000, () =>
    jwt.verify(token, key, { algorithms: ['HS256'] }),
  );
}

async function authentication(orm: MikroORM, actor: { tenantId: string; userId: string; email: string }) {
  console.log('\n2. Authentication of a user with a role (src/auth/authenticate.ts):');
  await perCall('user, then its roles: two statements through the ORM (now)', 500, () =>
    withTenant(orm.em, actor, async (em) => {
      const user = await em.findOne(User, { id: actor.userId }, { disableIdentityMap: true });
      return em.find(TenantRole, { name: { $in: user!.roles } }, { disableIdentityMap: true });
    }),
  );
  await perCall('user with its roles: one statement (proposed)', 500, () =>
    withTenant(orm.em, actor, (em) =>
      em.getConnection().execute(
        `select u.*, coalesce((select json_agg(r.permissions) from tenant_role r
           where r.tenant_id = u.tenant_id and r.name = any(u.roles)), '[]') as role_permissions
         from app_user u where u.tenant_id = ? and u.id = ? limit 1`,
        [actor.tenantId, actor.userId],
        'all',
        em.getTransactionContext(),
      ),
    ),
  );
  await perCall('an empty tenant transaction: BEGIN, set_config, COMMIT (now)', 500, () =>
    withTenant(orm.em, actor, async () => undefined),
  );
}

/** Rows as entity instances without the unit of work: the prototype gives getters and field resolvers. */
function plain(em: EntityManager, rows: Record<string, unknown>[]): Feature[] {
  const meta = em.getMetadata().get(Feature.name);
  const columns = Object.values(meta.properties).map((p) => [p.name, p.fieldNames?.[0]] as const);
  return rows.map((row) => {
    const f = Object.create(Feature.prototype) as Record<string, unknown>;
    for (const [prop, column] of columns) if (column) f[prop] = row[column];
    return f as unknown as Feature;
  });
}

async function pages(orm: MikroORM, actor: { tenantId: string; userId: string; email: string }) {
  const where = { status: FeatureStatus.READY };
  const orderBy = [{ name: 'asc' }, { created: 'asc' }, { id: 'asc' }] as never;
  for (const size of [20, 200]) {
    console.log(`\n3. A page of ${size} READY features sorted by name (src/family/service.ts pageOf):`);
    await perCall('findAndCount: entities, identity map, snapshots; page + count (now)', 200, () =>
      withTenant(orm.em, actor, (em) => em.findAndCount(Feature, where, { orderBy, limit: size })),
    );
    await perCall('find only (the count statement left out)', 200, () =>
      withTenant(orm.em, actor, (em) => em.find(Feature, where, { orderBy, limit: size })),
    );
    await perCall('find with disableIdentityMap', 200, () =>
      withTenant(orm.em, actor, (em) =>
        em.find(Feature, where, { orderBy, limit: size, disableIdentityMap: true }),
      ),
    );
    await perCall('query builder rows mapped onto Feature.prototype, no unit of work', 200, () =>
      withTenant(orm.em, actor, async (em) => {
        const qb = (em as any)
          .createQueryBuilder(Feature, 'f0')
          .select('*')
          .where(where)
          .orderBy(orderBy)
          .limit(size);
        await qb.applyFilters();
        return plain(em, await qb.execute('all', false));
      }),
    );
    await perCall('same, page and count in one statement (count lateral-joined to the page)', 200, () =>
      withTenant(orm.em, actor, async (em) => {
        const page = (em as any)
          .createQueryBuilder(Feature, 'f0')
          .select('*')
          .where(where)
          .orderBy(orderBy)
          .limit(size);
        const count = (em as any).createQueryBuilder(Feature, 'f0').count().where(where);
        await page.applyFilters();
        await count.applyFilters();
        // Two independent plans in one round trip: an index-only count and the page's index scan.
        const rows = await em
          .getConnection()
          .execute<Record<string, unknown>[]>(
            `select p.*, c.count as total_count from (${count.getFormattedQuery()}) c left join lateral (${page.getFormattedQuery()}) p on true`,
            [],
            'all',
            em.getTransactionContext(),
          );
        return {
          rows: plain(
            em,
            rows.filter((r: Record<string, unknown>) => r.id !== null),
          ),
          total: Number(rows[0]?.total_count ?? 0),
        };
      }),
    );
    if (size === 20)
      // Rejected: count(*) over () makes the page read every matching row before the limit.
      await perCall('same, count(*) over () in the page statement (a window)', 10, () =>
        withTenant(orm.em, actor, async (em) => {
          const qb = (em as any)
            .createQueryBuilder(Feature, 'f0')
            .select(['*', raw('count(*) over () as total_count')])
            .where(where)
            .orderBy(orderBy)
            .limit(size);
          await qb.applyFilters();
          return plain(em, await qb.execute('all', false));
        }),
      );
  }
}

async function main() {
  const orm = await openOrm({ clientUrl: url, poolMax: 2 });
  try {
    const conn = orm.em.getConnection();
    const [tenant] = await conn.execute<{ id: string }[]>(`select id from tenant where name = 'Main'`);
    const [user] = await conn.execute<{ id: string; email: string }[]>(
      `select id, email from app_user where tenant_id = ? and email like 'planner@%'`,
      [tenant.id],
    );
    const actor = { tenantId: tenant.id, userId: user.id, email: user.email };
    await jwtVerify();
    await authentication(orm, actor);
    await pages(orm, actor);
  } finally {
    await orm.close(true);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
