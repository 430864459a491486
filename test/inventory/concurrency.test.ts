import { startServer, type TestServer, type TestTenant } from '../support/server';
import { addStock, createProduct, createSite } from './helpers';

/**
 * Stock quantities never lose an update: concurrent changes of one product at one site queue on
 * the inventory's row lock (and its creation on the unique key) instead of overwriting each other
 * or failing with 409 on the optimistic version.
 */
describe('concurrent stock changes', () => {
  let server: TestServer;
  let a: TestTenant;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Concurrency');
  });
  afterAll(() => server.close());

  it('50 parallel additions of 1 to a product a site does not hold yet give exactly 50, in one inventory and batch', async () => {
    const site = await createSite(a.client, 'Busy site');
    const product = await createProduct(a.client, { name: 'Screw' });
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        addStock(a.client, site, [
          { productId: product, quantity: 1, price: 2, batchNumber: 'LOT', locationId: 'BIN' },
        ]),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(201));
    expect(new Set(responses.map((r) => r.body[0].id)).size).toBe(1);
    const totals = responses.map((r) => r.body[0].totalQuantity).sort((x, y) => x - y);
    expect(totals).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));

    const page = await a.client.get(`/inventory/dynamic-search?filters=siteId:eq:${site}`);
    expect(page.body.totalElements).toBe(1);
    const inv = page.body.content[0];
    expect(inv).toMatchObject({ totalQuantity: 50, availableQuantity: 50, unitPrice: 2, status: 'IN_STOCK' });
    expect(inv.locations).toEqual([
      expect.objectContaining({
        id: 'BIN',
        totalQuantity: 50,
        batches: [expect.objectContaining({ batchNumber: 'LOT', quantity: 50 })],
      }),
    ]);
    expect(inv.events.filter((e: any) => e.type === 'CREATE')).toHaveLength(1);
    expect(inv.events.filter((e: any) => e.type === 'UPDATE')).toHaveLength(49);
  });

  it('parallel adjustments serialize: each one starts from the quantity the previous one left', async () => {
    const site = await createSite(a.client, 'Count site');
    const product = await createProduct(a.client, { name: 'Nail' });
    await addStock(a.client, site, [{ productId: product, quantity: 100, price: 1 }]);
    const targets = Array.from({ length: 12 }, (_, i) => (i + 1) * 5);
    const responses = await Promise.all(
      targets.map((n) =>
        a.client.post('/inventory/adjust', { productId: product, stockSiteId: site, newQuantity: n }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(targets.length).fill(200));

    const inv = (await a.client.get(`/inventory/dynamic-search?filters=siteId:eq:${site}`)).body.content[0];
    const steps = inv.events
      .filter((e: any) => e.description?.startsWith('Adjusted'))
      .map((e: any) => /quantity (\S+) -> (\S+)/.exec(e.description)!.slice(1).map(Number));
    expect(steps).toHaveLength(targets.length);
    // A chain: 100 -> x1 -> x2 ... ; each adjustment saw the result of the one before it.
    expect(steps[0][0]).toBe(100);
    for (let i = 1; i < steps.length; i++) expect(steps[i][0]).toBe(steps[i - 1][1]);
    expect(steps.map((s: number[]) => s[1]).sort((x: number, y: number) => x - y)).toEqual(targets);
    expect(inv.totalQuantity).toBe(steps[steps.length - 1][1]);
    expect(inv.locations.reduce((s: number, l: any) => s + l.totalQuantity, 0)).toBe(inv.totalQuantity);
  });

  it('additions and adjustments of several products in opposite orders do not deadlock', async () => {
    const site = await createSite(a.client, 'Mixed site');
    const p1 = await createProduct(a.client, { name: 'Bolt' });
    const p2 = await createProduct(a.client, { name: 'Nut' });
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        addStock(
          a.client,
          site,
          i % 2 === 0
            ? [
                { productId: p1, quantity: 1 },
                { productId: p2, quantity: 1 },
              ]
            : [
                { productId: p2, quantity: 1 },
                { productId: p1, quantity: 1 },
              ],
        ),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(201));
    const page = await a.client.get(`/inventory/dynamic-search?filters=siteId:eq:${site}`);
    expect(page.body.content.map((i: any) => i.totalQuantity)).toEqual([20, 20]);
  });
});
