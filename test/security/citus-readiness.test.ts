import fs from 'node:fs';
import path from 'node:path';
import { UNIQUE_ACROSS_TENANTS } from '../../src/db/unkeyed-references';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { recordStatements } from '../support/statements';
import { sampleRequests } from '../support/sample-requests';
import { createSubsidiary, gql } from '../crm/support';
import { createProduct, createSite } from '../inventory/helpers';

/**
 * The conditions Citus's multi-tenant model needs, on the real catalog and on the statements the
 * service sends (Citus itself is not installed here: docs/integrity.md).
 */
const SCRIPT = path.join(__dirname, '..', '..', 'scripts', 'citus', 'distribute.sql');
/** Tables that stay local to the coordinator (the script says why). */
const COORDINATOR_LOCAL = ['mikro_orm_migrations', 'job_run'];

interface Distribution {
  table: string;
  column: string | null;
  colocateWith: string | null;
}

function distributionScript(): Distribution[] {
  const sql = fs.readFileSync(SCRIPT, 'utf8').replace(/--.*$/gm, '');
  const out: Distribution[] = [];
  for (const m of sql.matchAll(
    /create_(distributed|reference)_table\(\s*'(\w+)'(?:\s*,\s*'(\w+)')?(?:\s*,\s*colocate_with\s*=>\s*'(\w+)')?\s*\)/g,
  )) {
    out.push({ table: m[2], column: m[1] === 'distributed' ? m[3] : null, colocateWith: m[4] ?? null });
  }
  return out;
}

describe('ready for a distributed PostgreSQL (Citus, multi-tenant)', () => {
  let server: TestServer;
  let a: TestTenant;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('CitusA');
  }, 120_000); // a fresh database is migrated first
  afterAll(() => server.close());

  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    server.orm.em.getConnection().execute(text, params) as Promise<T[]>;

  /** The distribution column of each table of the catalog: tenant_id, or id for the tenants. */
  async function catalog() {
    const tables = await sql<{ table: string; scoped: boolean }>(`
      select c.relname as "table",
        exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped) as scoped
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'p')`);
    return tables.filter((t) => !COORDINATOR_LOCAL.includes(t.table));
  }

  it('the script distributes every table once, by its tenant column, co-located; referenced tables first', async () => {
    const tables = await catalog();
    const script = distributionScript();
    const named = script.map((d) => d.table);
    expect([...named].sort()).toEqual(tables.map((t) => t.table).sort());
    expect(new Set(named).size).toBe(named.length);
    for (const { table, scoped } of tables) {
      const d = script.find((s) => s.table === table)!;
      expect({ table, column: d.column }).toEqual({ table, column: scoped ? 'tenant_id' : 'id' });
      if (table !== 'tenant')
        expect({ table, colocateWith: d.colocateWith }).toEqual({ table, colocateWith: 'tenant' });
    }
    const keys = await sql<{ table: string; target: string }>(`
      select c.relname as "table", t.relname as target from pg_constraint con
      join pg_class c on c.oid = con.conrelid join pg_class t on t.oid = con.confrelid
      join pg_namespace n on n.oid = c.relnamespace
      where con.contype = 'f' and n.nspname = current_schema() and c.oid <> t.oid`);
    const late = keys.filter((k) => named.indexOf(k.target) > named.indexOf(k.table));
    expect(late).toEqual([]);
  });

  it('the distribution column is in every primary key and unique key', async () => {
    const keys = await sql<{ table: string; index: string; columns: string[]; scoped: boolean }>(`
      select c.relname as "table", i.relname as index,
        array(select a.attname::text from unnest(x.indkey) k(n)
              join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k.n) as columns,
        exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped) as scoped
      from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class c on c.oid = x.indrelid
      join pg_namespace n on n.oid = c.relnamespace
      where x.indisunique and n.nspname = current_schema()`);
    expect(keys.length).toBeGreaterThan(30);
    // The keys unique across tenants (src/db/unkeyed-references.ts) are dropped by the script,
    // which says why, before it distributes their tables.
    const dropped = [...fs.readFileSync(SCRIPT, 'utf8').matchAll(/drop constraint (\w+)/g)].map((m) => m[1]);
    // Those of coordinator-local tables (job_run) stay: such a table is not distributed.
    const local = (index: string) => COORDINATOR_LOCAL.some((t) => index.startsWith(`${t}_`));
    expect(dropped.sort()).toEqual(
      Object.keys(UNIQUE_ACROSS_TENANTS)
        .filter((index) => !local(index))
        .sort(),
    );
    const without = keys
      .filter((k) => !COORDINATOR_LOCAL.includes(k.table) && !dropped.includes(k.index))
      .filter((k) => !k.columns.includes(k.scoped ? 'tenant_id' : 'id'));
    expect(without.map((k) => k.index)).toEqual([]);
  });

  it('foreign keys join co-located tables on the distribution column; none points at a table that is not distributed', async () => {
    const script = distributionScript();
    const keys = await sql<{
      name: string;
      table: string;
      target: string;
      first: string;
      targetFirst: string;
    }>(`
      select con.conname as name, c.relname as "table", t.relname as target,
        (select attname::text from pg_attribute where attrelid = con.conrelid and attnum = con.conkey[1]) as first,
        (select attname::text from pg_attribute where attrelid = con.confrelid and attnum = con.confkey[1]) as "targetFirst"
      from pg_constraint con join pg_class c on c.oid = con.conrelid join pg_class t on t.oid = con.confrelid
      join pg_namespace n on n.oid = c.relnamespace
      where con.contype = 'f' and n.nspname = current_schema()`);
    expect(keys.length).toBeGreaterThan(40);
    const bad = keys.filter((k) => {
      const from = script.find((d) => d.table === k.table);
      const to = script.find((d) => d.table === k.target);
      if (!from || !to) return true;
      // A key to a reference table needs nothing more; between distributed tables both sides
      // must start with the distribution column.
      if (to.column === null) return false;
      return k.first !== from.column || k.targetFirst !== to.column;
    });
    expect(bad.map((k) => k.name)).toEqual([]);
  });

  it('no sequence or identity column: numbers come from per-tenant counter rows', async () => {
    const [seq] = await sql<{ n: number }>(
      `select count(*)::int as n from pg_sequences where schemaname = current_schema() and sequencename not like 'mikro_orm_migrations%'`,
    );
    expect(seq.n).toBe(0);
    const generated = await sql<{ column: string }>(`
      select table_name || '.' || column_name as "column" from information_schema.columns
      where table_schema = current_schema()
        and (is_identity = 'YES' or column_default like 'nextval(%')`);
    expect(generated.filter((g) => !COORDINATOR_LOCAL.includes(g.column.split('.')[0]))).toEqual([]);
  });

  it("every statement of a representative run touching tenant data names the caller's tenant; no sequence, no cross-tenant join", async () => {
    const tables = await catalog();
    const tenantTables = new Set(tables.map((t) => t.table));
    // Tables keyed by the tenant's own id (the tenant, and one-row-per-tenant companions of it).
    const keyedById = new Set(tables.filter((t) => !t.scoped).map((t) => t.table));
    const log = recordStatements();
    try {
      // Records of each group, made the way clients make them, so reads below find something.
      const subsidiary = await createSubsidiary(a.client, { name: 'Citus subsidiary' });
      const site = await createSite(a.client, 'Citus site', subsidiary);
      const product = await createProduct(a.client, { name: 'Citus product' });
      expect(
        (
          await a.client.post('/inventory', {
            stockSiteId: site,
            products: [{ productId: product, quantity: 3 }],
          })
        ).status,
      ).toBeLessThan(300);
      expect((await a.client.post('/stock-transfers/empty')).status).toBe(201);
      expect((await a.client.post('/invoices', {})).status).toBe(201);
      const project = (await a.client.post('/hr/projects', { name: 'Citus project' })).body.id;
      const epic = (await a.client.post('/hr/epics', { name: 'Citus epic', projectId: project })).body.id;
      const feature = (await a.client.post('/hr/features', { name: 'Citus feature', epicId: epic })).body.id;
      await gql(a.client, `mutation($i: CreateTaskInput!) { createTask(input: $i) { id } }`, {
        i: { title: 'Citus task', featureId: feature },
      });
      // Then every operation of the REST table once, as the tenant's super-admin.
      for (const req of sampleRequests(server.app.schema)) {
        const res = await a.client.request(req.method, req.path, req.body);
        expect({ op: `${req.method} ${req.route.path}`, status: res.status < 500 }).toEqual({
          op: `${req.method} ${req.route.path}`,
          status: true,
        });
      }
    } finally {
      log.stop();
    }
    const statements = log.takeWithValues();
    expect(statements.length).toBeGreaterThan(300);

    const touched = (text: string) =>
      [...text.matchAll(/\b(?:from|join|into|update)\s+"?(\w+)"?/gi)]
        .map((m) => m[1])
        .filter((t) => tenantTables.has(t));
    const problems = new Set<string>();
    let checked = 0;
    for (const { text, values } of statements) {
      if (/nextval\s*\(/i.test(text)) problems.add(`sequence: ${text}`);
      const names = touched(text);
      if (names.length === 0) continue;
      checked++;
      // The values tenant columns are compared with: bound parameters or, where the ORM's query
      // builder inlines them, literals.
      const column = names.every((t) => keyedById.has(t)) ? 'id' : 'tenant_id';
      const refs = [
        ...text.matchAll(
          new RegExp(`(?<!\\w)"?${column}"?\\s*(?:=|in\\s*\\()\\s*(?:\\$(\\d+)|'([0-9a-f-]{36})')`, 'gi'),
        ),
      ].map((m) => (m[1] ? values[Number(m[1]) - 1] : m[2]));
      if (/^\s*insert/i.test(text)) {
        // An insert sets tenant_id on its rows: the caller's tenant must be among its values.
        if (!values.includes(a.tenantId) && !text.includes(`'${a.tenantId}'`))
          problems.add(`insert without the tenant: ${text}`);
      } else if (refs.length === 0 || refs.some((v) => v !== a.tenantId)) {
        problems.add(`not filtered on the caller's tenant: ${text}`);
      }
      // Each tenant table a statement reads is constrained on the tenant (a join of two tables
      // needs the tenant column on both, directly or through the join condition).
      const mentions = (text.match(new RegExp(`\\b${column}\\b`, 'gi')) ?? []).length;
      if (names.length > 1 && mentions < names.length) problems.add(`join not on the tenant: ${text}`);
    }
    expect(checked).toBeGreaterThan(200);
    expect([...problems]).toEqual([]);
  }, 180_000); // every operation of the REST table, one after another
});
