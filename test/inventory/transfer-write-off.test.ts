import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody } from '../support/http';
import { addStock, createProduct, createSite, gql } from './helpers';

const WRITE_OFF = `mutation($id: ID!, $input: WriteOffStockTransferInput!) {
  writeOffStockTransfer(id: $id, input: $input) {
    id status incomingStockTransferStatus
    writtenOff { reason writtenOffAt writtenOffBy products { productId quantity unit } }
    productStatus { productId quantityShipped quantityDelivered quantityPending finishedQuantity }
  }
}`;

/**
 * What a shipped transfer still has in transit can be written off (lost, damaged on the way): it
 * leaves the destination's in-transit figures, the stock across sites plus in transit falls by
 * exactly what was written off, and the transfer is CLOSED. A shipped transfer cannot be
 * cancelled instead.
 */
describe('writing off stock in transit', () => {
  let server: TestServer;
  let a: TestTenant;
  let b: TestTenant;
  let src: string;
  let dst: string;
  let tea: string;
  let cup: string;

  const stock = async (siteId: string, productId: string) => {
    const res = await a.client.get(
      `/inventory/dynamic-search?filters=siteId:eq:${siteId}&filters=productId:eq:${productId}`,
    );
    expect(res.status).toBe(200);
    return res.body.content[0] ?? null;
  };
  /** What exists of the product: at both sites and on its way. */
  const everything = async (productId: string) => {
    let sum = 0;
    for (const s of [src, dst]) {
      const inv = await stock(s, productId);
      sum += Number(inv?.totalQuantity ?? 0) + Number(inv?.inTransitQuantity ?? 0);
    }
    return Math.round(sum * 10_000) / 10_000;
  };
  const shipped = async (products: object[]) => {
    const id = (await a.client.post('/stock-transfers/empty')).body.id as string;
    const res = await a.client.patch(`/stock-transfers/${id}`, {
      stockSiteId: src,
      destinationStockSiteId: dst,
      products,
      status: 'SHIPPED',
    });
    expect(res.status).toBe(200);
    return id;
  };
  const changes = async (resourceId: string, type: string) => {
    const rows = (await server.orm.em
      .getConnection()
      .execute(
        `select count(*)::int as n from outbox_event where tenant_id = ? and resource_id = ? and type = ?`,
        [a.tenantId, resourceId, type],
        'all',
      )) as { n: number }[];
    return Number(rows[0].n);
  };

  beforeAll(async () => {
    server = await startServer();
    [a, b] = await Promise.all([server.tenant('Write-off'), server.tenant('Write-off other')]);
    src = await createSite(a.client, 'Depot');
    dst = await createSite(a.client, 'Cafe');
    tea = await createProduct(a.client, { name: 'Tea' });
    cup = await createProduct(a.client, { name: 'Cup' });
    const added = await addStock(a.client, src, [
      { productId: tea, quantity: 50, price: 2 },
      { productId: cup, quantity: 30, price: 5 },
    ]);
    expect(added.status).toBe(201);
  });
  afterAll(() => server.close());

  it('writes off the remainder of a partly delivered transfer over REST and closes it', async () => {
    // Tea travels in boxes of 2: the remainder is written off in boxes, moved in base units.
    const id = await shipped([
      { productId: tea, quantity: 10, unit: 'box', baseUnitConversion: 2 },
      { productId: cup, quantity: 6, unit: 'pc' },
    ]);
    expect(await everything(tea)).toBe(50);
    const partly = await a.client.patch(`/stock-transfers/${id}`, {
      status: 'PARTIALLY_DELIVERED',
      deliveredProducts: [{ productId: tea, quantity: 3, unit: 'box' }],
    });
    expect(partly.status).toBe(200);
    const cafeTea = await stock(dst, tea);
    expect(cafeTea).toMatchObject({ totalQuantity: 6, inTransitQuantity: 14 });
    const changedBefore = await changes(cafeTea.id, 'stock_inventory.quantity_changed');

    const res = await a.client.post(`/stock-transfers/${id}/write-off`, { reason: 'Crate fell off the van' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id,
      status: 'CLOSED',
      incomingStockTransferStatus: 'PARTIALLY_RECEIVED',
    });
    expect(res.body.writtenOff).toBeUndefined();

    // Out of transit at the destination; what arrived stays; the source is as shipping left it.
    expect(await stock(dst, tea)).toMatchObject({
      totalQuantity: 6,
      inTransitQuantity: 0,
      inTransitStock: [],
    });
    expect(await stock(dst, cup)).toMatchObject({ totalQuantity: 0, inTransitQuantity: 0 });
    expect(await stock(src, tea)).toMatchObject({ totalQuantity: 30 });
    // Across sites plus in transit: less by exactly what was written off (14 tea, 6 cups).
    expect(await everything(tea)).toBe(36);
    expect(await everything(cup)).toBe(24);
    expect(await changes(cafeTea.id, 'stock_inventory.quantity_changed')).toBe(changedBefore + 1);

    const t = (
      await gql(
        a.client,
        `query($id: ID!) { enrichedStockTransfer(id: $id) {
          writtenOff { reason writtenOffBy writtenOffAt products { productId quantity unit } } } }`,
        { id },
      )
    ).enrichedStockTransfer;
    expect(t.writtenOff).toEqual({
      reason: 'Crate fell off the van',
      writtenOffBy: a.adminEmail,
      writtenOffAt: expect.stringMatching(/^\d{4}-/),
      products: expect.arrayContaining([
        { productId: tea, quantity: 7, unit: 'box' },
        { productId: cup, quantity: 6, unit: 'pc' },
      ]),
    });
    expect(t.writtenOff.products).toHaveLength(2);

    // The inventory's history says what was written off and why.
    const history = await a.client.get(`/inventory/find/${cafeTea.id}/history`);
    expect(JSON.stringify(history.body)).toContain('Wrote off 14 in transit');
    expect(JSON.stringify(history.body)).toContain('Crate fell off the van');

    // Closed: nothing more moves, and nothing can be written off twice.
    expectErrorBody(await a.client.post(`/stock-transfers/${id}/write-off`, { reason: 'again' }), 409);
    expectErrorBody(await a.client.patch(`/stock-transfers/${id}`, { status: 'DELIVERED' }), 409);
    expectErrorBody(
      await a.client.patch(`/stock-transfers/${id}`, {
        deliveredProducts: [{ productId: tea, quantity: 10, unit: 'box' }],
      }),
      409,
    );
    expect(await stock(dst, tea)).toMatchObject({ totalQuantity: 6, inTransitQuantity: 0 });
    // A closed transfer has nothing in transit, so it may be deleted (though it names itself as incoming).
    const deleted = await a.client.delete(`/stock-transfers/${id}`);
    expect(deleted.status).toBe(204);
    expect(await everything(tea)).toBe(36);
  });

  it('writes off a transfer nothing of which arrived over GraphQL; refuses what it cannot write off', async () => {
    const id = await shipped([{ productId: tea, quantity: 4 }]);
    const before = await everything(tea);

    // A shipped transfer cannot be cancelled (nor be closed by its status): it is written off.
    const cancelled = await a.client.patch(`/stock-transfers/${id}`, { status: 'CANCELLED' });
    expectErrorBody(cancelled, 409);
    expect(cancelled.body.detail).toMatch(/write-off/);
    expectErrorBody(await a.client.patch(`/stock-transfers/${id}`, { status: 'CLOSED' }), 400);

    // Bad input is a 400, another tenant's transfer does not exist for them, a draft has nothing to write off.
    expectErrorBody(await a.client.post(`/stock-transfers/${id}/write-off`, { reason: '' }), 400);
    expectErrorBody(await a.client.post(`/stock-transfers/${id}/write-off`, {}), 400);
    expectErrorBody(
      await a.client.post(`/stock-transfers/${id}/write-off`, { reason: 'x'.repeat(501) }),
      400,
    );
    expectErrorBody(await b.client.post(`/stock-transfers/${id}/write-off`, { reason: 'stolen' }), 404);
    expectErrorBody(await a.client.post(`/stock-transfers/not-an-id/write-off`, { reason: 'lost' }), 404);
    const draft = (await a.client.post('/stock-transfers/empty')).body.id as string;
    expectErrorBody(await a.client.post(`/stock-transfers/${draft}/write-off`, { reason: 'lost' }), 409);
    expect(await everything(tea)).toBe(before);

    const data = await gql(a.client, WRITE_OFF, { id, input: { reason: 'Lost in the post' } });
    expect(data.writeOffStockTransfer).toMatchObject({
      id,
      status: 'CLOSED',
      incomingStockTransferStatus: 'CANCELLED',
      writtenOff: { reason: 'Lost in the post', products: [{ productId: tea, quantity: 4, unit: null }] },
      // Written off, nothing is pending any more: the line is finished.
      productStatus: [
        { productId: tea, quantityShipped: 4, quantityDelivered: 0, quantityPending: 0, finishedQuantity: 4 },
      ],
    });
    expect(await everything(tea)).toBe(before - 4);
    expect(await stock(dst, tea)).toMatchObject({ inTransitQuantity: 0 });

    const again = await a.client.graphql(WRITE_OFF, { id, input: { reason: 'twice' } });
    expect(again.body.errors?.[0]?.message).toMatch(/CLOSED/);
    expect(await everything(tea)).toBe(before - 4);
  });

  it('lets one of two write-offs racing for the same transfer through', async () => {
    const id = await shipped([{ productId: cup, quantity: 3 }]);
    const before = await everything(cup);
    const both = await Promise.all([
      a.client.post(`/stock-transfers/${id}/write-off`, { reason: 'one' }),
      a.client.post(`/stock-transfers/${id}/write-off`, { reason: 'two' }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await everything(cup)).toBe(before - 3);
  });
});
