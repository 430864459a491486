import { AsyncLocalStorage } from 'node:async_hooks';
import { Concept } from '../../src/domain/configurator/entities/concept';
import { forkFor } from '../../src/db/tenancy';
import { eventSettings } from '../../src/events/settings';
import { deliverOne, dispatchOutbox } from '../../src/events/worker';
import { deleteExpiredKeys } from '../../src/jobs/idempotency-cleanup';
import { runCoverageJobOnce } from '../../src/domain/configurator/coverage-worker';
import { createLogger } from '../../src/logger';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { startReceiver } from '../events/receiver';

// The receiver is a local HTTP server on 127.0.0.1, which only this setting lets through.
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
const logger = createLogger('silent');

/**
 * The service enters no AsyncLocalStorage: on Node 20 (and 22 without its flag) the first one
 * entered turns on promise hooks that every later promise of the process pays
 * (src/db/orm-bypass/entity-manager.ts). MikroORM enters one in each flush and in em.transactional; the
 * service flushes without it and opens its transactions with inTransaction.
 */
describe('AsyncLocalStorage', () => {
  let server: TestServer;
  let a: TestTenant;
  const entered: string[] = [];
  const { run, enterWith } = AsyncLocalStorage.prototype;
  /** Notes who entered a storage: anyone but jest, which runs each test in one of its own. */
  const note = (stack: string) => {
    if (!/node_modules\/jest-/.test(stack.split('\n')[2] ?? '')) entered.push(stack);
  };

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Async storage');
    AsyncLocalStorage.prototype.run = function (this: AsyncLocalStorage<unknown>, ...args: any[]) {
      note(new Error('entered').stack!);
      return (run as any).apply(this, args);
    } as typeof run;
    AsyncLocalStorage.prototype.enterWith = function (this: AsyncLocalStorage<unknown>, store: unknown) {
      note(new Error('entered').stack!);
      return enterWith.call(this, store);
    };
  });
  beforeEach(() => {
    entered.length = 0;
  });
  afterAll(async () => {
    AsyncLocalStorage.prototype.run = run;
    AsyncLocalStorage.prototype.enterWith = enterWith;
    await server?.close();
  });

  it('is never entered by requests that write and read, nor by the background jobs', async () => {
    const created = await a.client.post('/concepts', { name: 'Stored without a storage' });
    expect(created.status).toBe(201);
    const written = await a.client.graphql(
      `mutation($i: CreateConceptInput!) { createConcept(input: $i) { id } }`,
      { i: { name: 'Written through GraphQL' } },
    );
    expect(written.body.errors).toBeUndefined();
    expect((await a.client.get(`/concepts/find/${created.body.id}`)).status).toBe(200);
    expect((await a.client.graphql(`{ conceptPage { content { id } } }`)).body.errors).toBeUndefined();
    // The job queue claims in a transaction of its own. Jobs other files left due in this
    // worker's database run first (entering no storage either); then none is, and the empty claim
    // still commits.
    for (let i = 0; i < 50 && (await runCoverageJobOnce(server.orm, logger)) !== null; i++);
    expect(await runCoverageJobOnce(server.orm, logger)).toBeNull();
    expect(Number.isInteger(await deleteExpiredKeys(server.orm))).toBe(true);
    expect(entered).toEqual([]);
  });

  it('is never entered by the events that leave the service, nor by the pages of their records', async () => {
    const receiver = await startReceiver();
    try {
      const hook = await a.client.post('/webhooks', { url: `${receiver.url}/hook`, events: ['*'] });
      expect(hook.status).toBe(201);
      expect((await a.client.post('/concepts', { name: 'Told to a webhook' })).status).toBe(201);
      // Earlier files on this database may have left events and deliveries of their own: all
      // are dispatched and every due delivery made (or failed), ours among them.
      while ((await dispatchOutbox(server.orm)) > 0);
      const settings = { ...eventSettings({}), allowPrivateTargets: true, timeoutMs: 2000 };
      while (await deliverOne(server.orm, settings, logger));
      expect(receiver.at('/hook').length).toBeGreaterThan(0);
      const deliveries = await a.client.graphql(
        `query($id: ID!) { webhookDeliveries(id: $id) { totalElements content { status } } }`,
        { id: hook.body.id },
      );
      expect(deliveries.body.data.webhookDeliveries.totalElements).toBeGreaterThan(0);
      const notifications = await a.client.graphql(`{ userNotifications { totalElements } }`);
      expect(notifications.body.errors).toBeUndefined();
    } finally {
      await receiver.close();
    }
    expect(entered).toEqual([]);
  }, 120_000);

  it('lets a flush begun while another runs wait its turn, and writes what each was given', async () => {
    const em = forkFor(server.orm.em, { tenantId: a.tenantId, userId: a.adminId, email: a.adminEmail });
    const first = em.create(Concept, { tenantId: a.tenantId, name: 'First of two flushes' } as never);
    const flushing = em.persist(first).flush();
    const second = em.create(Concept, { tenantId: a.tenantId, name: 'Second of two flushes' } as never);
    await Promise.all([flushing, em.persist(second).flush()]);
    const names = (
      await server.orm.em
        .getConnection()
        .execute(
          `select name from concept where tenant_id = ? and name like '% of two flushes' order by name`,
          [a.tenantId],
        )
    ).map((row: { name: string }) => row.name);
    expect(names).toEqual(['First of two flushes', 'Second of two flushes']);
    expect(entered).toEqual([]);
  });
});
