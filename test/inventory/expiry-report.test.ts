import { inventoryModule } from '../../src/domain/inventory';
import { JobScheduler } from '../../src/jobs/scheduler';
import { createLogger } from '../../src/logger';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { addStock, createProduct, createSite } from './helpers';

/** The daily expiry report, run by the scheduler for one tenant; its effect read over the API. */
describe('the inventory.expired-batches job', () => {
  let server: TestServer;
  let a: TestTenant;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Expiry');
  });
  afterAll(() => server.close());

  const run = async (tenantId: string, now: Date) => {
    const scheduler = new JobScheduler(server.orm, inventoryModule.scheduled!, createLogger('silent'));
    const [result] = await scheduler.runNow(['inventory.expired-batches'], { tenantId, now });
    return result.outcome === 'skipped' ? 'skipped' : result.items;
  };

  it("reports each batch that expired in the day up to now once, in its inventory's events; other tenants see nothing", async () => {
    const site = await createSite(a.client, 'Dairy');
    const milk = await createProduct(a.client, { name: 'Milk' });
    await addStock(a.client, site, [
      { productId: milk, quantity: 4, price: 1, batchNumber: 'M1', locationId: 'F1' },
      { productId: milk, quantity: 6, price: 1, batchNumber: 'M2', locationId: 'F1' },
    ]);
    for (const [batch, date] of [
      ['M1', '2027-03-01T05:00:00.000Z'],
      ['M2', '2027-03-09T05:00:00.000Z'],
    ])
      await a.client.put(
        `/inventory/batches?stockSiteId=${site}&productId=${milk}&batchNumber=${batch}&locationId=F1&expirationDate=${date}`,
      );
    const b = await server.tenant('Expiry elsewhere');
    expect(await run(b.tenantId, new Date('2027-03-01T06:00:00.000Z'))).toBe(0);

    expect(await run(a.tenantId, new Date('2027-03-01T06:00:00.000Z'))).toBe(1);
    // The next day's run does not report it again.
    expect(await run(a.tenantId, new Date('2027-03-02T06:00:00.000Z'))).toBe(0);
    const inv = (await a.client.get(`/inventory/dynamic-search?filters=siteId:eq:${site}`)).body.content[0];
    const reported = inv.events.filter((e: any) => e.description?.includes('expired on'));
    expect(reported.map((e: any) => e.description)).toEqual([
      'Batch M1 at F1: 4 expired on 2027-03-01T05:00:00.000Z and is no longer offered',
    ]);
    // A tenant that switched inventory off is skipped.
    expect((await a.client.patch('/tenant', { scopes: { inventory: false } })).status).toBe(200);
    expect(await run(a.tenantId, new Date('2027-03-09T06:00:00.000Z'))).toBe('skipped');
  });
});
