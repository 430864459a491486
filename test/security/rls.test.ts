import { Concept } from '../../src/domain/configurator/entities/concept';
import { openOrm } from '../../src/db/orm';
import { APP_ROLE, beginTenantTransaction, withTenant } from '../../src/db/tenant-transaction';
import { forkFor } from '../../src/db/tenancy';
import { workerDatabaseUrl } from '../support/database';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { ormComposition } from '../../src/orm-composition';

/** The second isolation layer: PostgreSQL row-level security, independent of the ORM filter. */
describe('row-level security', () => {
  let server: TestServer;
  let a: TestTenant;
  let b: TestTenant;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('RlsA');
    b = await server.tenant('RlsB');
    await a.client.post('/concepts', { name: 'A1' });
    await a.client.post('/concepts', { name: 'A2' });
    await b.client.post('/concepts', { name: 'B1' });
  });
  afterAll(() => server.close());

  const conn = () => server.orm.em.getConnection();
  const actor = (t: TestTenant) => ({ tenantId: t.tenantId, userId: t.adminId, email: t.adminEmail });

  it('every table with a tenant_id has row-level security enabled and forced, with the tenant policy', async () => {
    const rows = (await conn().execute(`
      select c.relname, c.relrowsecurity, c.relforcerowsecurity,
             exists (select 1 from pg_policies p where p.tablename = c.relname and p.schemaname = n.nspname and p.policyname = 'tenant_isolation') as policy
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind = 'r'
        and (c.relname = 'tenant' or exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped))`)) as {
      relname: string;
      relrowsecurity: boolean;
      relforcerowsecurity: boolean;
      policy: boolean;
    }[];
    expect(rows.length).toBeGreaterThan(10);
    const weak = rows
      .filter((r) => !r.relrowsecurity || !r.relforcerowsecurity || !r.policy)
      .map((r) => r.relname);
    expect(weak).toEqual([]);
  });

  it('the application role is neither superuser, nor able to bypass RLS, nor the owner of any table', async () => {
    const [role] = await conn().execute(`select rolsuper, rolbypassrls from pg_roles where rolname = ?`, [
      APP_ROLE,
    ]);
    expect(role).toEqual({ rolsuper: false, rolbypassrls: false });
    const [owned] = await conn().execute(`select count(*)::int as n from pg_tables where tableowner = ?`, [
      APP_ROLE,
    ]);
    expect(owned.n).toBe(0);
  });

  it('with the ORM tenant filter switched off, a tenant transaction still sees only its tenant', async () => {
    const names = await withTenant(server.orm.em, actor(a), async (em) => {
      const all = await em.find(Concept, {}, { filters: false });
      const raw = await em
        .getConnection()
        .execute('select name from concept', [], 'all', em.getTransactionContext());
      return { orm: all.map((c) => c.name).sort(), raw: raw.map((r: { name: string }) => r.name).sort() };
    });
    expect(names).toEqual({ orm: ['A1', 'A2'], raw: ['A1', 'A2'] });
  });

  it('rows of another tenant can be neither written nor changed from a tenant transaction', async () => {
    await expect(
      withTenant(server.orm.em, actor(a), (em) =>
        em
          .getConnection()
          .execute(
            `insert into concept (tenant_id, id, name) values (?, gen_random_uuid(), 'planted')`,
            [b.tenantId],
            'all',
            em.getTransactionContext(),
          ),
      ),
    ).rejects.toThrow(/row-level security/);
    const changed = await withTenant(server.orm.em, actor(a), (em) =>
      em
        .getConnection()
        .execute(
          `update concept set name = 'hijacked' where tenant_id = ?`,
          [b.tenantId],
          'run',
          em.getTransactionContext(),
        ),
    );
    expect(changed.affectedRows).toBe(0);
    const bNames = await withTenant(server.orm.em, actor(b), (em) =>
      em.find(Concept, {}, { filters: false }),
    );
    expect(bNames.map((c) => c.name)).toEqual(['B1']);
  });

  it('an empty or missing tenant setting matches nothing (fails closed)', async () => {
    const em = forkFor(server.orm.em, actor(a));
    await beginTenantTransaction(em, a.tenantId);
    try {
      await em
        .getConnection()
        .execute(`select set_config('app.tenant_id', '', true)`, [], 'all', em.getTransactionContext());
      const [row] = await em
        .getConnection()
        .execute('select count(*)::int as n from concept', [], 'all', em.getTransactionContext());
      expect(row.n).toBe(0);
    } finally {
      await em.rollback();
    }
  });

  it('a pooled connection reused after a commit keeps neither the tenant nor the role', async () => {
    const orm = await openOrm({
      composition: ormComposition,
      clientUrl: await workerDatabaseUrl(),
      poolMax: 1,
    });
    try {
      await withTenant(orm.em, actor(a), (em) => em.find(Concept, {}));
      const em = orm.em.fork();
      await em.begin();
      try {
        const [row] = await em
          .getConnection()
          .execute(
            `select current_user as "user", coalesce(current_setting('app.tenant_id', true), '') as tenant`,
            [],
            'all',
            em.getTransactionContext(),
          );
        expect(row.tenant).toBe('');
        expect(row.user).not.toBe(APP_ROLE);
        await em
          .getConnection()
          .execute(`select set_config('role', ?, true)`, [APP_ROLE], 'all', em.getTransactionContext());
        const [count] = await em
          .getConnection()
          .execute('select count(*)::int as n from concept', [], 'all', em.getTransactionContext());
        expect(count.n).toBe(0);
      } finally {
        await em.rollback();
      }
    } finally {
      await orm.close(true);
    }
  });

  it('requests run under RLS: a request cannot read another tenant even by raw id lookups', async () => {
    const bConcept = (await b.client.get('/concepts/find-all')).body[0];
    expect((await a.client.get(`/concepts/find/${bConcept.id}`)).status).toBe(404);
  });
});
