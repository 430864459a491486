import { randomUUID } from 'node:crypto';
import { ConnectionTransaction } from '../../src/db/orm-bypass/connection-transaction';
import { queryRows } from '../../src/db/orm-bypass/statements';
import { forkFor } from '../../src/db/tenancy';
import { inTransaction } from '../../src/db/transaction';
import { actAsApplicationTenant, asWorker } from '../../src/db/worker-transaction';
import {
  beginTenantTransaction,
  endTenantTransaction,
  onlyReads,
  openCallerTransaction,
  withTenant,
} from '../../src/db/tenant-transaction';
import { Concept } from '../../src/domain/configurator/entities/concept';
import { startServer, type TestServer, type TestTenant } from '../support/server';

/**
 * Requests run in a ConnectionTransaction (src/db/orm-bypass/connection-transaction.ts): begun and ended
 * with plain statements, taken by MikroORM and knex as their transaction context; so do jobs,
 * workers and tools (inTransaction). It must keep
 * what a transaction promises: writes through the ORM stored on commit and gone on rollback, a
 * failed commit reported, every connection back in the pool whatever failed, and nothing run
 * through a context once its transaction has ended.
 */
describe('request transactions', () => {
  let server: TestServer;
  let a: TestTenant;
  const actor = () => ({ tenantId: a.tenantId, userId: a.adminId, email: a.adminEmail });

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Transactions');
  });
  afterAll(() => server.close());

  const conceptNamed = (name: string) =>
    withTenant(server.orm.em, actor(), (em) => em.findOne(Concept, { name }));

  /** A transaction after the failures still writes and reads: no connection was left broken. */
  async function expectPoolServes(): Promise<void> {
    const name = `after ${randomUUID()}`;
    await withTenant(server.orm.em, actor(), async (em) => {
      em.persist(em.create(Concept, { name } as never));
    });
    expect(await conceptNamed(name)).toMatchObject({ name, tenantId: a.tenantId });
  }

  it('stores what the ORM flushed on commit, and nothing on rollback', async () => {
    const kept = `kept ${randomUUID()}`;
    const dropped = `dropped ${randomUUID()}`;
    await withTenant(server.orm.em, actor(), async (em) => {
      expect(em.getTransactionContext()).toBeInstanceOf(ConnectionTransaction);
      em.persist(em.create(Concept, { name: kept } as never));
    });
    await expect(
      withTenant(server.orm.em, actor(), async (em) => {
        em.persist(em.create(Concept, { name: dropped } as never));
        await em.flush();
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await conceptNamed(kept)).toMatchObject({ name: kept, tenantId: a.tenantId });
    expect(await conceptNamed(dropped)).toBeNull();
  });

  /**
   * A query's transaction (ConnectionTransaction.readOnly): no block; each statement goes in one
   * pipeline after the tenant's settings, in PostgreSQL's implicit transaction that the
   * pipeline's Sync ends. Only where pipelines are taken (not on the embedded database).
   */
  it("runs jobs' and workers' transactions (inTransaction, asWorker) the same way, and refuses queryRows in one MikroORM opened itself", async () => {
    const seen = await asWorker(server.orm, 'probe', async (em) => {
      expect(em.getTransactionContext()).toBeInstanceOf(ConnectionTransaction);
      const [own] = await queryRows(
        em,
        `select txid_current()::text as tx, current_setting('app.worker') as worker`,
        [],
      );
      const [orm] = await em
        .getConnection()
        .execute('select txid_current()::text as tx', [], 'all', em.getTransactionContext());
      expect(orm.tx).toBe(own.tx);
      return own.worker;
    });
    expect(seen).toBe('probe');
    // The role and tenant queryRows sets hold for the flush: the flush is in the same transaction.
    const write = (name: string, fail: boolean) => {
      const em = forkFor(server.orm.em, actor());
      return inTransaction(em, async () => {
        await actAsApplicationTenant(em, a.tenantId);
        em.persist(em.create(Concept, { name } as never));
        await em.flush();
        if (fail) throw new Error('changed my mind');
      });
    };
    const kept = `job kept ${randomUUID()}`;
    const dropped = `job dropped ${randomUUID()}`;
    await write(kept, false);
    await expect(write(dropped, true)).rejects.toThrow('changed my mind');
    expect(await conceptNamed(kept)).toMatchObject({ name: kept, tenantId: a.tenantId });
    expect(await conceptNamed(dropped)).toBeNull();
    await expect(
      server.orm.em.fork().transactional((em) => queryRows(em, 'select 1 as one', [])),
    ).rejects.toThrow(/inTransaction/);
    await expectPoolServes();
  });

  it("runs a query's statements each with the settings, outside any block, read-only, until one writes", async () => {
    const [{ v }] = await server.orm.em.getConnection().execute('select version() as v');
    const pipelined = !/PGlite/.test(String(v));
    const em = forkFor(server.orm.em, actor());
    await openCallerTransaction(em, a.tenantId, () => true);
    onlyReads(em);
    const probe = `select current_setting('app.tenant_id', true) as tenant, current_user as role,
                          current_setting('transaction_read_only') as read_only,
                          now()::text as began, pg_backend_pid() as pid, pg_sleep(0.02)::text as slept`;
    const [first] = await queryRows(em, probe, []);
    const [second] = await queryRows(em, probe, []);
    expect(first).toMatchObject({ tenant: a.tenantId, role: 'bms_app' });
    expect(second).toMatchObject({ tenant: a.tenantId, role: 'bms_app', pid: first.pid });
    if (pipelined) {
      // Each statement is a transaction of its own: its start time is its own.
      expect([first.read_only, second.read_only]).toEqual(['on', 'on']);
      expect(second.began).not.toBe(first.began);
      // A write (PostgreSQL refuses it, read-only) turns the rest into a block: BEGIN, the
      // settings, writable, and the write again; the COMMIT keeps it.
      const name = `written by a query ${randomUUID()}`;
      await queryRows(em, `insert into concept (id, tenant_id, name) values ($1, $2, $3)`, [
        randomUUID(),
        a.tenantId,
        name,
      ]);
      const [third] = await queryRows(em, probe, []);
      const [fourth] = await queryRows(em, probe, []);
      expect(third).toMatchObject({ tenant: a.tenantId, role: 'bms_app', read_only: 'off', pid: first.pid });
      expect(fourth.began).toBe(third.began);
      await endTenantTransaction(em, true);
      expect(await conceptNamed(name)).toMatchObject({ name, tenantId: a.tenantId });
    } else {
      expect(second.began).toBe(first.began);
      await endTenantTransaction(em, true);
    }
    expect(em.isInTransaction()).toBe(false);
    // Nothing stays on the connection: a later statement outside any request sees no tenant.
    for (let i = 0; i < 6; i++) {
      const [row] = await server.orm.em
        .getConnection()
        .execute(
          `select coalesce(current_setting('app.tenant_id', true), '') as tenant, current_user as role`,
        );
      expect(row).toMatchObject({ tenant: '', role: 'postgres' });
    }
  });

  it('answers a first statement that fails with its own error, the settings before it having run', async () => {
    for (const readOnly of [false, true]) {
      const em = forkFor(server.orm.em, actor());
      const versions: (string | null)[] = [];
      await openCallerTransaction(em, a.tenantId, (version) => {
        versions.push(version);
        return true;
      });
      if (readOnly) onlyReads(em);
      await expect(queryRows(em, 'select 1 / 0', [])).rejects.toThrow(/division by zero/);
      // The caller check reads the version the settings read in that same round trip.
      await endTenantTransaction(em, false);
      expect(versions).toHaveLength(1);
      expect(em.isInTransaction()).toBe(false);
    }
    await expectPoolServes();
  });

  it('refuses to run anything through a context whose transaction has ended', async () => {
    const em = forkFor(server.orm.em, actor());
    await beginTenantTransaction(em, a.tenantId);
    const context = em.getTransactionContext();
    await endTenantTransaction(em, true);
    await expect(em.getConnection().execute('select 1 as one', [], 'all', context)).rejects.toThrow(
      /transaction has ended/,
    );
  });

  it('returns the connection to the pool when a statement of BEGIN’s round trip fails', async () => {
    // More failures than the pool has connections: a leak would leave the next request waiting.
    for (let i = 0; i < 12; i++) {
      const em = forkFor(server.orm.em, actor());
      await expect(beginTenantTransaction(em, a.tenantId, 'select 1 / 0')).rejects.toThrow(
        /division by zero/,
      );
      expect(em.isInTransaction()).toBe(false);
    }
    await expectPoolServes();
  });

  it('reports a commit that fails, and the pool goes on serving with the same connection', async () => {
    const em = forkFor(server.orm.em, actor());
    await beginTenantTransaction(em, a.tenantId);
    const execute = (sql: string) => em.getConnection().execute(sql, [], 'all', em.getTransactionContext());
    const [{ pid }] = await execute('select pg_backend_pid() as pid');
    // A deferred unique constraint is checked at COMMIT: the commit itself fails.
    await execute('create temp table deferred_check (id int unique deferrable initially deferred)');
    await execute('insert into deferred_check values (1), (1)');
    await expect(endTenantTransaction(em, true)).rejects.toThrow(/duplicate key/);
    expect(em.isInTransaction()).toBe(false);
    for (let i = 0; i < 12; i++)
      expect(await withTenant(server.orm.em, actor(), (fork) => fork.count(Concept, {}))).toBeGreaterThan(0);
    // PostgreSQL answered the COMMIT and ended the transaction: the connection is sound, so it
    // went back to the pool rather than being discarded (and knex logging "Connection Error").
    const alive = await server.orm.em
      .getConnection()
      .execute('select count(*)::int as n from pg_stat_activity where pid = ?', [pid]);
    expect(alive[0].n).toBe(1);
  });

  it('sends a deferred write with the next statement, which reads it, or with COMMIT', async () => {
    const em = forkFor(server.orm.em, actor());
    await beginTenantTransaction(em, a.tenantId);
    const transaction = em.getTransactionContext() as ConnectionTransaction;
    const named = (name: string) => ({
      text: 'insert into concept (tenant_id, id, name, created, updated) values ($1, $2, $3, now(), now())',
      values: [a.tenantId, randomUUID(), name],
    });
    const first = `deferred ${randomUUID()}`;
    const second = `deferred ${randomUUID()}`;
    transaction.defer(named(first));
    // The next statement runs after it, in the same transaction: it sees the row.
    const seen = await queryRows(em, 'select count(*)::int as n from concept where name = $1', [first]);
    expect(seen[0].n).toBe(1);
    transaction.defer(named(second));
    await endTenantTransaction(em, true);
    expect(await conceptNamed(first)).toMatchObject({ name: first });
    expect(await conceptNamed(second)).toMatchObject({ name: second });
  });

  it('rolls back a commit whose deferred write fails, reports its error, and keeps the pool serving', async () => {
    const em = forkFor(server.orm.em, actor());
    await beginTenantTransaction(em, a.tenantId);
    const transaction = em.getTransactionContext() as ConnectionTransaction;
    const name = `rolled back ${randomUUID()}`;
    await queryRows(
      em,
      'insert into concept (tenant_id, id, name, created, updated) values ($1, $2, $3, now(), now())',
      [a.tenantId, randomUUID(), name],
    );
    // Another tenant's row: refused by row-level security when it goes out with COMMIT.
    transaction.defer({
      text: 'insert into concept (tenant_id, id, name, created, updated) values ($1, $2, $3, now(), now())',
      values: [randomUUID(), randomUUID(), 'not mine'],
    });
    await expect(endTenantTransaction(em, true)).rejects.toThrow(/row-level security|foreign key/);
    expect(em.isInTransaction()).toBe(false);
    expect(await conceptNamed(name)).toBeNull();
    await expectPoolServes();
  });

  it('runs statements with parameters as named prepared statements, prepared once per connection', async () => {
    const text = `select $1::int + 1 as n -- ${randomUUID()}`;
    const prepared = await withTenant(server.orm.em, actor(), async (em) => {
      expect(await queryRows(em, text, [1])).toEqual([{ n: 2 }]);
      expect(await queryRows(em, text, [2])).toEqual([{ n: 3 }]);
      return queryRows(em, 'select name from pg_prepared_statements where statement = $1', [text]);
    });
    expect(prepared).toHaveLength(1);
    expect(prepared[0].name).toMatch(/^bms_[0-9a-f]{8}_\d+_\d+$/);
  });
});
