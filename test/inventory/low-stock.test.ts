import { startServer, type TestServer, type TestTenant } from '../support/server';
import { addStock, createProduct, createSite, gql } from './helpers';

/**
 * Every move keeps an inventory's status; `stock_inventory.low` is written once per crossing from
 * IN_STOCK to LOW_STOCK or OUT_OF_STOCK, and reorder suggestions order up to the maximum.
 */
describe('low stock and reorder suggestions', () => {
  let server: TestServer;
  let a: TestTenant;
  let site: string;
  let other: string;
  let salt: string;
  let inventoryId: string;

  const lowEvents = async () => {
    const rows = (await server.orm.em
      .getConnection()
      .execute(
        `select count(*)::int as n from outbox_event where tenant_id = ? and resource_id = ? and type = 'stock_inventory.low'`,
        [a.tenantId, inventoryId],
        'all',
      )) as { n: number }[];
    return Number(rows[0].n);
  };
  const adjust = (newQuantity: number) =>
    a.client.post('/inventory/adjust', { productId: salt, stockSiteId: site, newQuantity });

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Low stock');
    site = await createSite(a.client, 'Kitchen');
    other = await createSite(a.client, 'Cellar');
    salt = await createProduct(a.client, { name: 'Salt' });
    const created = await gql(
      a.client,
      `mutation($input: CreateStockInventoryInput!) { createStockInventory(input: $input) { id status } }`,
      { input: { productId: salt, siteId: site, minimum: 5, maximum: 20 } },
    );
    inventoryId = created.createStockInventory.id;
  });
  afterAll(() => server.close());

  it('raises stock_inventory.low once per crossing, whatever moves the stock', async () => {
    // A new inventory with nothing in it is a crossing.
    expect(await lowEvents()).toBe(1);
    expect((await addStock(a.client, site, [{ productId: salt, quantity: 10, price: 1 }])).status).toBe(201);
    expect((await adjust(4)).body.status).toBe('LOW_STOCK');
    expect(await lowEvents()).toBe(2);
    // Lower still, and out: no new crossing.
    expect((await adjust(3)).body.status).toBe('LOW_STOCK');
    expect((await adjust(0)).body.status).toBe('OUT_OF_STOCK');
    expect(await lowEvents()).toBe(2);
    // Back above the minimum, then a transfer's reservation takes it down again.
    await addStock(a.client, site, [{ productId: salt, quantity: 10, price: 1 }]);
    const id = (await a.client.post('/stock-transfers/empty')).body.id;
    const approved = await a.client.patch(`/stock-transfers/${id}`, {
      stockSiteId: site,
      destinationStockSiteId: other,
      products: [{ productId: salt, quantity: 8 }],
      status: 'APPROVED',
    });
    expect(approved.status).toBe(200);
    const inv = (await a.client.get(`/inventory/find/${inventoryId}`)).body;
    expect(inv).toMatchObject({ status: 'LOW_STOCK', availableQuantity: 2, reservedQuantity: 8 });
    expect(await lowEvents()).toBe(3);
  });

  it('suggests what to order up to the maximum, over REST and GraphQL', async () => {
    const res = await a.client.get(`/inventory/reorder-suggestions?siteId=${site}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        inventoryId,
        productId: salt,
        siteId: site,
        subsidiaryId: null,
        availableQuantity: 2,
        inTransitQuantity: 0,
        minimum: 5,
        maximum: 20,
        suggestedQuantity: 18,
      },
    ]);
    const data = await gql(a.client, `{ stockReorderSuggestions { productId suggestedQuantity } }`);
    expect(data.stockReorderSuggestions).toEqual([{ productId: salt, suggestedQuantity: 18 }]);
    expect((await a.client.get(`/inventory/reorder-suggestions?siteId=${other}`)).body).toEqual([]);
    expect((await a.client.get('/inventory/reorder-suggestions?siteId=nope')).status).toBe(400);
    const reader = await a.userWith(['READ_STOCK_TRANSFERS']);
    expect((await reader.client.get('/inventory/reorder-suggestions')).status).toBe(403);
  });
});
