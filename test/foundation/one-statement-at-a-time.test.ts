import pg from 'pg';
import { queryRows } from '../../src/db/orm-bypass/statements';
import { withTenant } from '../../src/db/tenant-transaction';
import { createTask } from '../hr/helpers';
import { startServer, type TestServer, type TestTenant } from '../support/server';

/**
 * A request's statements all run on its transaction's one connection, and GraphQL resolves
 * sibling fields in parallel. pg would queue a statement sent while another runs, but that queue
 * is deprecated (pg 9 removes it, and it prints a DeprecationWarning), so the request transaction
 * sends one statement at a time itself. Counted at pg's Client: no statement may be sent on a
 * connection while another is still running there, and pg must not warn.
 */
describe('one statement at a time on a request connection', () => {
  let server: TestServer;
  let a: TestTenant;
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  const running = new WeakMap<object, number>();
  let overlaps = 0;
  let sent = 0;
  let versionChecks = 0;
  /** The statement counts of the pipelines sent (src/db/orm-bypass/pipeline.ts). */
  let pipelines: number[] = [];
  const original = pg.Client.prototype.query;

  beforeAll(async () => {
    process.on('warning', onWarning);
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      sent++;
      // The pool asks once whether the database takes pipelines (connection-transaction.ts).
      if (typeof args[0] === 'string' && /^select version\(\)/.test(args[0])) versionChecks++;
      const statements = (args[0] as { statements?: unknown[] } | undefined)?.statements;
      if (statements) pipelines.push(statements.length);
      const now = running.get(this) ?? 0;
      if (now > 0) overlaps++;
      running.set(this, now + 1);
      const done = () => running.set(this, (running.get(this) ?? 1) - 1);
      const last = args[args.length - 1];
      if (typeof last === 'function') {
        args[args.length - 1] = (err: unknown, result: unknown) => {
          done();
          (last as (e: unknown, r: unknown) => void)(err, result);
        };
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      }
      const result = (original as (...a: unknown[]) => unknown).apply(this, args);
      if (result instanceof Promise) result.then(done, done);
      else done();
      return result;
    } as typeof original;
    server = await startServer();
    a = await server.tenant('Serial');
  });
  afterAll(async () => {
    pg.Client.prototype.query = original;
    process.off('warning', onWarning);
    await server?.close();
  });
  beforeEach(() => {
    overlaps = 0;
    sent = 0;
    versionChecks = 0;
    pipelines = [];
  });

  const deprecations = () => warnings.filter((w) => w.name === 'DeprecationWarning').map((w) => w.message);

  it('runs statements sent together, by pg and by knex, one after another, each with its own answer', async () => {
    const answers = await withTenant(
      server.orm.em,
      { tenantId: a.tenantId, userId: a.adminId, email: a.adminEmail },
      (em) => {
        const context = em.getTransactionContext();
        return Promise.all([
          ...[1, 2, 3, 4, 5].map((n) =>
            queryRows(em, 'select $1::int as n, pg_sleep(0.01)::text as slept', [n]).then((r) => r[0].n),
          ),
          ...[6, 7, 8].map((n) =>
            em
              .getConnection()
              .execute<{ n: number }[]>(`select ${n} as n, pg_sleep(0.01)::text as slept`, [], 'all', context)
              .then((r) => r[0].n),
          ),
        ]);
      },
    );
    expect(answers).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // The five sent at once through queryRows waited together (behind BEGIN and the tenant's
    // settings) and went out in one write; knex's three, sent one by one, each went alone. The
    // embedded database takes no pipelines: there each statement goes alone.
    const pipelined = Boolean(process.env.DATABASE_URL);
    expect(pipelines).toEqual(pipelined ? [2, 5] : []);
    expect(sent - versionChecks).toBe(pipelined ? 2 + 3 + 1 : 2 + 5 + 3 + 1);
    expect(overlaps).toBe(0);
    expect(deprecations()).toEqual([]);
  });

  it('resolves sibling derived fields of several features in parallel over GraphQL without overlapping', async () => {
    const epic = (
      await a.client.post('/hr/epics', { name: 'Parallel', color: '#336699', status: 'IN_PROGRESS' })
    ).body;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await a.client.post('/hr/features', { name: `Parallel ${i}`, epicId: epic.id })).body.id);
    await createTask(a.client, { title: 'one', featureId: ids[0], status: 'DONE' });
    await createTask(a.client, { title: 'two', featureId: ids[0] });
    overlaps = 0;
    sent = 0;
    const res = await a.client.graphql(
      `query($ids: [ID!]!) { features(ids: $ids) { id epic { id name } taskCount completedTaskCount progress events { type } } }`,
      { ids },
    );
    expect(res.body.errors).toBeUndefined();
    const first = res.body.data.features.find((f: { id: string }) => f.id === ids[0]);
    expect(first).toMatchObject({
      epic: { id: epic.id, name: 'Parallel' },
      taskCount: 2,
      completedTaskCount: 1,
    });
    // At least one pipeline: the settings and the features with their derived fields (a query
    // sends no BEGIN and no COMMIT: ConnectionTransaction.readOnly).
    expect(sent).toBeGreaterThanOrEqual(1);
    expect(overlaps).toBe(0);
    expect(deprecations()).toEqual([]);
  });
});
