import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { MikroORM } from '@mikro-orm/core';
import { startHost, stopHost } from '../../src/db/embedded';
import { migratorOf, openOrm } from '../../src/db/orm';
import { ormComposition } from '../../src/orm-composition';

/**
 * The foreign-key migration on a database that already holds rows written before the keys,
 * including references that the keys forbid: it must not fail, and it treats each kind of orphan
 * as docs/integrity.md says.
 */
describe('the tenant foreign-key migration on existing data', () => {
  const BEFORE = 'Migration20261122000001_rls';
  let url: string;
  let cleanup: () => Promise<void>;
  let orm: MikroORM;

  beforeAll(async () => {
    if (process.env.DATABASE_URL) {
      const name = `${process.env.TEST_DATABASE_PREFIX}_fkmig`;
      const admin = new Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      await admin.query(`create database "${name}"`);
      await admin.end();
      const u = new URL(process.env.DATABASE_URL);
      u.pathname = `/${name}`;
      url = u.toString();
      cleanup = async () => {
        const again = new Client({ connectionString: process.env.DATABASE_URL });
        await again.connect();
        await again.query(`drop database if exists "${name}" with (force)`);
        await again.end();
      };
    } else {
      const { child, port } = await startHost('memory://');
      url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
      cleanup = () => stopHost(child);
    }
    orm = await openOrm({ composition: ormComposition, clientUrl: url, poolMax: 1 });
  }, 120_000);
  afterAll(async () => {
    await orm?.close(true);
    await cleanup?.();
  });

  it('clears set-null orphans, deletes cascade orphans, leaves a restrict key with orphans NOT VALID', async () => {
    await (await migratorOf(orm)).up({ to: BEFORE });
    const sql = (text: string, params: unknown[] = []) => orm.em.getConnection().execute(text, params);
    const [a, b] = [randomUUID(), randomUUID()];
    const ids = {
      epicOfB: randomUUID(),
      feature: randomUUID(),
      inventory: randomUUID(),
      orphanBatch: randomUUID(),
      lead: randomUUID(),
      goneSubsidiary: randomUUID(),
    };
    // Written as each tenant: the tables force row-level security on their owner too (a
    // superuser, as in these tests, bypasses it either way).
    const asTenant = async (tenant: string, text: string, params: unknown[]) => {
      await orm.em.fork().transactional(async (em) => {
        const ctx = em.getTransactionContext();
        await em.getConnection().execute(`select set_config('app.tenant_id', ?, true)`, [tenant], 'all', ctx);
        await em.getConnection().execute(text, params, 'all', ctx);
      });
    };
    await asTenant(b, `insert into epic (tenant_id, id, name, events, tags) values (?, ?, 'B', '[]', '{}')`, [
      b,
      ids.epicOfB,
    ]);
    // Tenant A's feature names tenant B's epic: a cross-tenant reference (set null).
    await asTenant(
      a,
      `insert into feature (tenant_id, id, name, events, tags, epic_id) values (?, ?, 'A', '[]', '{}', ?)`,
      [a, ids.feature, ids.epicOfB],
    );
    // A batch whose inventory is gone (cascade).
    await asTenant(
      a,
      `insert into stock_batch (tenant_id, id, inventory_id, site_id, product_id, quantity, uom_split, unit_price)
       values (?, ?, ?, ?, ?, 1, '[]', 0)`,
      [a, ids.orphanBatch, ids.inventory, randomUUID(), randomUUID()],
    );
    // A lead scoped to a subsidiary that no longer exists (restrict: kept as it is).
    await asTenant(a, `insert into lead (tenant_id, id, events, subsidiary_id) values (?, ?, '[]', ?)`, [
      a,
      ids.lead,
      ids.goneSubsidiary,
    ]);

    await (await migratorOf(orm)).up();

    const [feature] = await sql(`select epic_id from feature where id = ?`, [ids.feature]);
    expect(feature.epic_id).toBeNull();
    const batches = await sql(`select id from stock_batch where id = ?`, [ids.orphanBatch]);
    expect(batches).toEqual([]);
    const [lead] = await sql(`select subsidiary_id from lead where id = ?`, [ids.lead]);
    expect(lead.subsidiary_id).toBe(ids.goneSubsidiary);
    const keys = await sql(
      `select conname, convalidated from pg_constraint where conname in (?, ?, ?, ?) order by conname`,
      [
        'feature_epic_id_tenant_fk',
        'lead_subsidiary_id_tenant_fk',
        'stock_batch_inventory_id_tenant_fk',
        'stock_batch_product_id_tenant_fk',
      ],
    );
    expect(keys).toEqual([
      { conname: 'feature_epic_id_tenant_fk', convalidated: true },
      { conname: 'lead_subsidiary_id_tenant_fk', convalidated: false },
      // The batch that named a missing product and site went with its inventory.
      { conname: 'stock_batch_inventory_id_tenant_fk', convalidated: true },
      { conname: 'stock_batch_product_id_tenant_fk', convalidated: true },
    ]);
    // A key left NOT VALID still refuses new rows that break it.
    await expect(
      asTenant(a, `update lead set subsidiary_id = ? where id = ?`, [randomUUID(), ids.lead]),
    ).rejects.toThrow(/lead_subsidiary_id_tenant_fk/);
    // Row-level security is forced again on every table the migration touched.
    const [unforced] = await sql(
      `select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = current_schema() and c.relkind = 'r' and not c.relforcerowsecurity
         and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id')`,
    );
    expect(unforced.n).toBe(0);
  }, 180_000);
});
