import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { workerDatabaseUrl } from '../support/database';
import { recordStatements } from '../support/statements';
import { startServer, type TestServer, type TestTenant } from '../support/server';

/**
 * The service's statements are prepared once per connection (src/db/orm-bypass/connection-transaction.ts),
 * but PostgreSQL still plans a prepared statement for its values on each of its first five
 * executions and afterwards only when its generic plan is estimated dearer than those. An
 * unknown array length (`id = any($2)`) or page size (`limit $5`) made it so, and the commonest
 * reads were planned on every request. Here the statements a find and a page send are run again,
 * as they are sent, on a connection of the test's, and PostgreSQL says which plans it used.
 */
describe('the commonest reads run on a plan made once', () => {
  let server: TestServer;
  let a: TestTenant;
  let db: Client;
  let id: string;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Generic plans');
    // Enough rows that a plan for an unknown array length or page size is costed dearer.
    for (let batch = 0; batch < 20; batch++) {
      const made = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          a.client.post('/hr/features', { name: `Feature ${batch * 10 + i}`, status: 'READY' }),
        ),
      );
      for (const res of made) expect(res.status).toBe(201);
      id ??= made[0].body.id;
    }
    db = new Client({ connectionString: await workerDatabaseUrl() });
    await db.connect();
    // Statistics as a running database has them (autovacuum analyzes a table that grew).
    await db.query('analyze feature');
    // Two hundred creates: beyond the default hook timeout on a machine busy with other work.
  }, 120_000);
  afterAll(async () => {
    await db.end();
    await server.close();
  });

  /** The statement reading features that `path` sends, with its values. */
  async function featureStatement(path: string) {
    const log = recordStatements();
    try {
      const res = await a.client.get(path);
      expect(res.status).toBe(200);
      const sent = log.takeWithValues().filter((s) => /from "feature"/.test(s.text));
      expect(sent).toHaveLength(1);
      return sent[0];
    } finally {
      log.stop();
    }
  }

  /** How PostgreSQL planned `statement` over eight executions as the service's role and tenant. */
  async function plansOf(statement: { text: string; values: unknown[] }) {
    const name = `probe_${randomBytes(4).toString('hex')}`;
    await db.query('begin');
    try {
      await db.query(`select set_config('role', 'bms_app', true), set_config('app.tenant_id', $1, true)`, [
        a.tenantId,
      ]);
      for (let i = 0; i < 8; i++) await db.query({ name, text: statement.text, values: statement.values });
      const { rows } = await db.query(
        'select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where name = $1',
        [name],
      );
      return rows[0] as { generic: number; custom: number };
    } finally {
      await db.query('rollback');
      await db.query(`deallocate ${name}`);
    }
  }

  it('a record by id, with its derived values', async () => {
    const statement = await featureStatement(`/hr/features/find/${id}`);
    const plans = await plansOf(statement);
    expect(plans.generic).toBeGreaterThan(0);
    expect(plans.custom).toBeLessThanOrEqual(5);
  });

  it('a page of a search with its count', async () => {
    const statement = await featureStatement(
      '/hr/features/dynamic-search?filters=status:eq:READY&sort=name,asc&size=2',
    );
    const plans = await plansOf(statement);
    expect(plans.generic).toBeGreaterThan(0);
    expect(plans.custom).toBeLessThanOrEqual(5);
  });
});
