import { ruleTree, describeRule } from '../../src/permissions/rules';
import { restTable } from '../../src/rest/table';
import { buildAppSchema } from '../../src/app-schema';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { sampleRequests, type SampleRequest } from '../support/sample-requests';

/**
 * The permission matrix, generated from the REST table and the rules of the GraphQL fields behind
 * it: for every documented operation, a user without the permission gets 403 and nothing
 * changes; a user with exactly that permission gets past authorization; so does the super-admin.
 * An operation whose field has no rule fails here (and the service refuses to start).
 */
// Decided on the schema alone: the service would not start (nor the matrix below) without a rule.
it('every operation has a rule', async () => {
  const tree = ruleTree(await buildAppSchema());
  const missing = restTable
    .filter((r) => !tree.Query[r.field] && !tree.Mutation[r.field])
    .map((r) => `${r.method} ${r.path}`);
  expect(missing).toEqual([]);
});

describe('permission matrix over every REST operation', () => {
  let server: TestServer;
  let a: TestTenant;
  let requests: SampleRequest[];

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Matrix');
    requests = sampleRequests(server.app.schema);
  });
  afterAll(() => server.close());

  /** Rows per tenant table, to show that refused calls change nothing. */
  async function snapshot(tenantId: string): Promise<Record<string, number>> {
    const conn = server.orm.em.getConnection();
    const tables = (await conn.execute(
      `select table_name from information_schema.columns where column_name = 'tenant_id' and table_schema = current_schema()`,
    )) as { table_name: string }[];
    const out: Record<string, number> = {};
    for (const { table_name } of tables) {
      const [row] = await conn
        .execute(
          `select count(*)::int as n, coalesce(max(version), 0)::int as v from "${table_name}" where tenant_id = ?`,
          [tenantId],
        )
        .catch(() =>
          conn.execute(`select count(*)::int as n from "${table_name}" where tenant_id = ?`, [tenantId]),
        );
      out[table_name] = Number(row.n) * 1000 + Number(row.v ?? 0);
    }
    return out;
  }

  it('no permission: 403 and nothing changes; exactly the permission and super-admin: past authorization', async () => {
    const tree = ruleTree(server.app.schema);
    const nobody = await a.userWith([]);
    const before = await snapshot(a.tenantId);
    const failures: string[] = [];
    const exact = new Map<string, Awaited<ReturnType<TestTenant['userWith']>>>();
    for (const req of requests) {
      const rule = tree.Query[req.route.field] ?? tree.Mutation[req.route.field];
      const { kind, permission } = describeRule(rule);
      const label = `${req.method} ${req.route.path}`;
      const res = await nobody.client.request(req.method, req.path, req.body);
      if (kind === 'authenticated') {
        if (res.status === 401 || res.status === 403 || res.status >= 500)
          failures.push(`${label}: own-records operation answered ${res.status} to a plain user`);
      } else if (res.status !== 403) {
        failures.push(`${label}: without ${permission ?? kind} answered ${res.status}, expected 403`);
      }
      if (kind === 'permission') {
        if (!exact.has(permission!)) exact.set(permission!, await a.userWith([permission!]));
        const ok = await exact.get(permission!)!.client.request(req.method, req.path, req.body);
        if (ok.status === 401 || ok.status === 403 || ok.status >= 500)
          failures.push(
            `${label}: with exactly ${permission} answered ${ok.status} ${ok.text.slice(0, 120)}`,
          );
      }
    }
    const after = await snapshot(a.tenantId);
    // The exact-permission calls may create records; refused calls alone must change nothing, so
    // check them again in isolation against a fresh snapshot.
    expect(failures).toEqual([]);
    const before2 = await snapshot(a.tenantId);
    for (const req of requests) {
      const rule = tree.Query[req.route.field] ?? tree.Mutation[req.route.field];
      if (describeRule(rule).kind !== 'authenticated')
        await nobody.client.request(req.method, req.path, req.body);
    }
    expect(await snapshot(a.tenantId)).toEqual(before2);
    expect(Object.keys(after).length).toBe(Object.keys(before).length);
  }, 180_000); // every operation three times over: longer than the default on the embedded database

  it('the super-admin gets past authorization everywhere', async () => {
    const failures: string[] = [];
    for (const req of requests) {
      const res = await a.client.request(req.method, req.path, req.body);
      if (res.status === 401 || res.status === 403 || res.status >= 500)
        failures.push(`${req.method} ${req.route.path}: ${res.status} ${res.text.slice(0, 160)}`);
    }
    expect(failures).toEqual([]);
  });
});
