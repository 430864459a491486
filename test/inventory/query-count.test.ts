import { recordStatements, type StatementLog } from '../support/statements';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import type { Client } from '../support/http';
import { addStock, createProduct, createSite, gql } from './helpers';

/**
 * Derived fields (an inventory's locations, the enriched transfer's products, stock and site
 * names) and the joined searches cost the same number of SQL statements whatever the page size.
 * Statements are counted at the pg driver (test/support/statements.ts).
 */
describe('inventory pages cost a fixed number of SQL statements', () => {
  const ROWS = 12;
  let server: TestServer;
  let a: TestTenant;
  let from: string;
  let to: string;
  let log: StatementLog | undefined;

  async function counted(client: Client, method: 'get' | 'post', path: string, body?: unknown) {
    log!.take();
    const res = method === 'get' ? await client.get(path) : await client.post(path, body);
    expect(res.status).toBe(200);
    const taken = log!.take();
    if (process.env.SHOW_SQL) console.log(taken.map((t) => t.slice(0, 160)).join('\n'));
    return { count: taken.length, body: res.body };
  }

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Counting');
    from = await createSite(a.client, 'From');
    to = await createSite(a.client, 'To');
    const products: string[] = [];
    for (let i = 0; i < ROWS; i++) products.push(await createProduct(a.client, { name: `Product ${i}` }));
    await addStock(
      a.client,
      from,
      products.flatMap((productId, i) => [
        { productId, quantity: 2, price: 1, batchNumber: `A${i}`, locationId: 'L1' },
        { productId, quantity: 3, price: 1, batchNumber: `B${i}`, locationId: 'L2' },
      ]),
    );
    await addStock(
      a.client,
      to,
      products.map((productId) => ({ productId, quantity: 1, price: 1 })),
    );
    for (let i = 0; i < ROWS; i++) {
      const id = (await a.client.post('/stock-transfers/empty')).body.id;
      await gql(
        a.client,
        `mutation($id: ID!, $input: StockTransferInput!) { updateStockTransfer(id: $id, input: $input) { id } }`,
        {
          id,
          input: {
            stockSiteId: from,
            destinationStockSiteId: to,
            products: [
              { productId: products[i], quantity: 2, pricePerUnit: 1 },
              { productId: products[(i + 1) % ROWS], quantity: 1, pricePerUnit: 1 },
            ],
            // Approving reserves both products at the source (the service's reservedProducts).
            status: 'APPROVED',
          },
        },
      );
    }
    log = recordStatements();
  }, 120_000);
  afterAll(async () => {
    log?.stop();
    await server.close();
  });

  const same = async (
    run: (size: number) => Promise<{ count: number; body: any }>,
    check: (body: any) => void,
  ) => {
    const small = await run(2);
    const large = await run(ROWS);
    expect(small.body.content).toHaveLength(2);
    expect(large.body.content).toHaveLength(ROWS);
    check(large.body);
    expect(small.count).toBeGreaterThan(2);
    expect(large.count).toBe(small.count);
    expect(large.count).toBeLessThanOrEqual(8);
  };

  it('inventories with their locations', () =>
    same(
      (size) => counted(a.client, 'get', `/inventory/dynamic-search?filters=siteId:eq:${from}&size=${size}`),
      (body) => {
        for (const inv of body.content) expect(inv.locations.map((l: any) => l.id)).toEqual(['L1', 'L2']);
      },
    ));

  it('transfers in the enriched form', () =>
    same(
      (size) => counted(a.client, 'post', '/stock-transfers/dynamic-search-enriched', { size }),
      (body) => {
        for (const t of body.content) {
          expect(t.products.map((p: any) => p.productName)).toEqual([
            expect.stringMatching(/^Product/),
            expect.stringMatching(/^Product/),
          ]);
          // 5 in stock, 3 of it reserved by the approved transfers (2 by one, 1 by another).
          expect(t.products[0].availableStock).toBe(2);
          expect(t.reservedProducts.map((r: any) => r.siteName)).toEqual(['From', 'From']);
        }
      },
    ));

  it('batch search and product stock search', async () => {
    await same(
      (size) => counted(a.client, 'get', `/inventory/batch-search?stockSiteId=${from}&size=${size}`),
      (body) => expect(body.totalElements).toBe(ROWS * 2),
    );
    await same(
      (size) =>
        counted(
          a.client,
          'get',
          `/inventory/dynamic-product-stock-inventory-search?stockSiteId=${from}&destinationStockSiteId=${to}&size=${size}`,
        ),
      (body) => {
        for (const row of body.content) {
          expect(row.totalAmount).toBe(5);
          expect(row.destinationProductInfo.totalAmount).toBe(1);
        }
      },
    );
  });

  it("product stock search reads its rows' figures in the page's own statement", async () => {
    log!.take();
    const res = await a.client.get(
      `/inventory/dynamic-product-stock-inventory-search?stockSiteId=${from}&destinationStockSiteId=${to}&size=${ROWS}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.content[0]).toMatchObject({ totalAmount: 5, destinationProductInfo: { totalAmount: 1 } });
    const statements = log!.take();
    // The figures are subqueries of the page; no statement reads the inventories apart from it.
    expect(statements.filter((s) => /"stock_inventory"/.test(s))).toEqual([]);
    const pages = statements.filter((s) => /from stock_inventory si/.test(s));
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain('"__derived_destinationProductInfo.totalAmount"');
  });
});
