import { ForeignKeyConstraintViolationException } from '@mikro-orm/core';
import { Feature } from '../../src/domain/hr/entities/feature';
import { withTenant } from '../../src/db/tenant-transaction';
import { UNIQUE_ACROSS_TENANTS, UNKEYED_REFERENCES } from '../../src/db/unkeyed-references';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { createSubsidiary, gql, gqlErrorStatus } from '../crm/support';

/**
 * The database itself refuses what the application refuses: every reference between records of
 * one tenant is a foreign key that includes tenant_id, and every unique key includes tenant_id.
 * Checked on the real catalog, then by writing past the application.
 */
describe('integrity in the database', () => {
  let server: TestServer;
  let a: TestTenant;
  let b: TestTenant;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('IntegrityA');
    b = await server.tenant('IntegrityB');
  }, 120_000); // a fresh database is migrated first
  afterAll(() => server.close());

  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    server.orm.em.getConnection().execute(text, params) as Promise<T[]>;

  /** Every foreign key: its table and columns, the table and columns it points at, its rule. */
  const foreignKeys = () =>
    sql<{
      name: string;
      table: string;
      columns: string[];
      target: string;
      targetColumns: string[];
      valid: boolean;
    }>(`
      select con.conname as name, c.relname as "table", t.relname as target, con.convalidated as valid,
        array(select a.attname::text from unnest(con.conkey) with ordinality k(n, o)
              join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n order by k.o) as columns,
        array(select a.attname::text from unnest(con.confkey) with ordinality k(n, o)
              join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n order by k.o) as "targetColumns"
      from pg_constraint con
      join pg_class c on c.oid = con.conrelid join pg_namespace n on n.oid = c.relnamespace
      join pg_class t on t.oid = con.confrelid
      where con.contype = 'f' and n.nspname = current_schema()`);

  it('every reference column has a validated key (tenant_id, x_id) -> x (tenant_id, id), or is listed as unkeyed', async () => {
    const columns = await sql<{ table: string; column: string }>(`
      select c.table_name as "table", c.column_name as "column"
      from information_schema.columns c
      where c.table_schema = current_schema() and c.column_name like '%\\_id'
        and c.column_name <> 'tenant_id'
        and exists (select 1 from information_schema.columns t where t.table_schema = c.table_schema
                    and t.table_name = c.table_name and t.column_name = 'tenant_id')`);
    expect(columns.length).toBeGreaterThan(40);
    const keys = await foreignKeys();
    const primaryKeys = await sql<{ table: string; columns: string[] }>(`
      select c.relname as "table", array(select a.attname::text from unnest(con.conkey) with ordinality k(n, o)
        join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n order by k.o) as columns
      from pg_constraint con join pg_class c on c.oid = con.conrelid join pg_namespace n on n.oid = c.relnamespace
      where con.contype = 'p' and n.nspname = current_schema()`);
    const keyedByTenantAndId = new Set(
      primaryKeys.filter((p) => p.columns.join() === 'tenant_id,id').map((p) => p.table),
    );
    const unkeyed = new Set(Object.keys(UNKEYED_REFERENCES));
    const missing: string[] = [];
    for (const { table, column } of columns) {
      const name = `${table}.${column}`;
      if (unkeyed.has(name)) continue;
      const key = keys.find(
        (k) =>
          k.table === table &&
          k.columns.join() === `tenant_id,${column}` &&
          k.targetColumns.join() === 'tenant_id,id' &&
          keyedByTenantAndId.has(k.target),
      );
      if (!key || !key.valid) missing.push(name);
    }
    expect(missing).toEqual([]);
    // The list of exceptions names only columns that exist and really have no key.
    const present = new Set(columns.map((c) => `${c.table}.${c.column}`));
    expect([...unkeyed].filter((name) => !present.has(name))).toEqual([]);
    const keyedAnyway = [...unkeyed].filter((name) =>
      keys.some((k) => `${k.table}.${k.columns[k.columns.length - 1]}` === name),
    );
    expect(keyedAnyway).toEqual([]);
  });

  it('every foreign key between tenant tables includes tenant_id on both sides', async () => {
    const keys = await foreignKeys();
    expect(keys.length).toBeGreaterThan(40);
    const crossing = keys.filter((k) => k.columns[0] !== 'tenant_id' || k.targetColumns[0] !== 'tenant_id');
    expect(crossing.map((k) => k.name)).toEqual([]);
  });

  it('every foreign key has an index that starts with its columns (deleting the referenced record looks them up)', async () => {
    const unindexed = await sql<{ name: string }>(`
      select con.conname as name from pg_constraint con join pg_namespace n on n.oid = con.connamespace
      where con.contype = 'f' and n.nspname = current_schema() and not exists (
        select 1 from pg_index x where x.indrelid = con.conrelid
          and (x.indkey::int2[])[0:array_length(con.conkey, 1) - 1] = con.conkey)`);
    expect(unindexed).toEqual([]);
  });

  it('every unique index of a tenant table (primary keys included) includes tenant_id', async () => {
    const indexes = await sql<{ index: string; columns: string[] }>(`
      select i.relname as index, array(select a.attname::text from unnest(x.indkey) k(n)
        join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k.n) as columns
      from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class c on c.oid = x.indrelid
      join pg_namespace n on n.oid = c.relnamespace
      where x.indisunique and n.nspname = current_schema()
        and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped)`);
    expect(indexes.length).toBeGreaterThan(30);
    const across = indexes.filter((i) => !i.columns.includes('tenant_id')).map((i) => i.index);
    expect(across.sort()).toEqual(Object.keys(UNIQUE_ACROSS_TENANTS).sort());
  });

  describe('writing past the application', () => {
    let epicOfB: string;
    let featureOfA: string;

    beforeAll(async () => {
      epicOfB = (await b.client.post('/hr/epics', { name: 'B epic' })).body.id;
      featureOfA = (await a.client.post('/hr/features', { name: 'A feature' })).body.id;
    });

    it('as the tables owner (no RLS, no ORM): a reference to another tenant is refused', async () => {
      await expect(sql(`update feature set epic_id = ? where id = ?`, [epicOfB, featureOfA])).rejects.toThrow(
        /feature_epic_id_tenant_fk/,
      );
      await expect(
        sql(
          `insert into feature (tenant_id, id, name, tags) values (?, gen_random_uuid(), 'planted', '{}')
           returning id`,
          [a.tenantId],
        ).then(() => sql(`update feature set epic_id = ? where name = 'planted'`, [epicOfB])),
      ).rejects.toThrow(/violates foreign key constraint/);
      const [row] = await sql<{ epic_id: string | null }>(`select epic_id from feature where id = ?`, [
        featureOfA,
      ]);
      expect(row.epic_id).toBeNull();
    });

    it('through the ORM with its tenant filter off, in a tenant transaction: refused', async () => {
      const actor = { tenantId: a.tenantId, userId: a.adminId, email: a.adminEmail };
      await expect(
        withTenant(server.orm.em, actor, (em) =>
          em.nativeUpdate(Feature, { id: featureOfA }, { epicId: epicOfB }, { filters: false }),
        ),
      ).rejects.toBeInstanceOf(ForeignKeyConstraintViolationException);
    });

    it('an id of no record at all is refused too', async () => {
      await expect(
        sql(`update feature set epic_id = gen_random_uuid() where id = ?`, [featureOfA]),
      ).rejects.toThrow(/violates foreign key constraint/);
    });
  });

  describe('ON DELETE does what the documentation says', () => {
    it('set null: deleting an epic clears the epic of its features (and not their tenant)', async () => {
      const epic = (await a.client.post('/hr/epics', { name: 'Goes away' })).body.id;
      const feature = (await a.client.post('/hr/features', { name: 'Stays', epicId: epic })).body.id;
      const deleted = await gql(a.client, `mutation($id: ID!) { deleteEpic(id: $id) }`, { id: epic });
      expect(deleted.deleteEpic).toBe(true);
      const read = await gql(a.client, `query($id: ID!) { feature(id: $id) { id tenantId epicId } }`, {
        id: feature,
      });
      expect(read.feature).toEqual({ id: feature, tenantId: a.tenantId, epicId: null });
    });

    it('restrict: a subsidiary that still scopes a lead cannot be deleted (409) and nothing changes', async () => {
      const subsidiary = await createSubsidiary(a.client, { name: 'Kept' });
      const leadOf = async (id: string) =>
        (await gql(a.client, `query($id: ID!) { lead(id: $id) { subsidiaryId } }`, { id })).lead;
      const created = await gql(
        a.client,
        `mutation($input: LeadInput!) { createLead(input: $input) { id subsidiaryId } }`,
        { input: { firstName: 'Ada', subsidiaryId: subsidiary } },
      );
      const lead = created.createLead;
      expect(lead.subsidiaryId).toBe(subsidiary);
      const status = await gqlErrorStatus(a.client, `mutation($id: ID!) { deleteSubsidiary(id: $id) }`, {
        id: subsidiary,
      });
      expect(status).toBe(409);
      expect(await leadOf(lead.id)).toEqual({ subsidiaryId: subsidiary });
      const [row] = await sql<{ n: number }>(`select count(*)::int as n from subsidiary where id = ?`, [
        subsidiary,
      ]);
      expect(row.n).toBe(1);
    });

    it("cascade: deleting a user deletes the user's own push tokens", async () => {
      const user = await a.userWith([]);
      const token = await user.client.post('/notifications/push-tokens', {
        platform: 'ANDROID',
        token: 'cascade-tok',
      });
      expect(token.status).toBe(201);
      const deleted = await gql(a.client, `mutation($id: ID!) { deleteUser(id: $id) }`, { id: user.userId });
      expect(deleted.deleteUser).toBe(true);
      const [row] = await sql<{ n: number }>(`select count(*)::int as n from push_token where user_id = ?`, [
        user.userId,
      ]);
      expect(row.n).toBe(0);
    });
  });
});
