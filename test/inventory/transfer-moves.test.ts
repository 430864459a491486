import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody } from '../support/http';
import { addStock, createProduct, createSite, gql } from './helpers';

const UPDATE = `mutation($id: ID!, $input: StockTransferInput!) { updateStockTransfer(id: $id, input: $input) { id status } }`;

/** The outbox rows of one record of a type, oldest first. */
async function eventTypes(server: TestServer, tenantId: string, resourceId: string): Promise<string[]> {
  const rows = (await server.orm.em
    .getConnection()
    .execute(
      `select type from outbox_event where tenant_id = ? and resource_id = ? order by occurred_at, type`,
      [tenantId, resourceId],
      'all',
    )) as { type: string }[];
  return rows.map((r) => r.type);
}

/**
 * Transfers move stock: APPROVED reserves at the source, SHIPPED takes the stock out (first
 * expiring, never expired) into transit to the destination, deliveries bring it in as batches.
 */
describe('stock transfers move stock', () => {
  let server: TestServer;
  let a: TestTenant;
  let src: string;
  let dst: string;
  let oak: string;

  const stock = async (siteId: string, productId = oak) => {
    const res = await a.client.get(
      `/inventory/dynamic-search?filters=siteId:eq:${siteId}&filters=productId:eq:${productId}`,
    );
    expect(res.status).toBe(200);
    return res.body.content[0] ?? null;
  };
  const batches = (inv: any) =>
    inv.locations.flatMap((l: any) =>
      l.batches.map((b: any) => [b.batchNumber, b.quantity, b.expirationDate ?? null]),
    );
  const enriched = async (id: string) =>
    (await a.client.post('/stock-transfers/dynamic-search-enriched', { filters: { id } })).body.content[0];
  const draft = async (products: object[], from = src, to = dst) => {
    const id = (await a.client.post('/stock-transfers/empty')).body.id as string;
    const res = await a.client.patch(`/stock-transfers/${id}`, {
      stockSiteId: from,
      destinationStockSiteId: to,
      products,
    });
    expect(res.status).toBe(200);
    return id;
  };
  /** What exists of the product: at both sites and on its way. */
  const everything = async (productId = oak, sites = [src, dst]) => {
    let sum = 0;
    for (const s of sites) {
      const inv = await stock(s, productId);
      sum += (inv?.totalQuantity ?? 0) + (inv?.inTransitQuantity ?? 0);
    }
    return Math.round(sum * 10_000) / 10_000;
  };

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Moves');
    src = await createSite(a.client, 'Warehouse');
    dst = await createSite(a.client, 'Shop');
    oak = await createProduct(a.client, { name: 'Oak plank' });
    const added = await addStock(a.client, src, [
      { productId: oak, quantity: 10, price: 2, batchNumber: 'OLD', locationId: 'L1' },
      { productId: oak, quantity: 20, price: 3, batchNumber: 'NEW', locationId: 'L1' },
      { productId: oak, quantity: 5, price: 1, batchNumber: 'GONE', locationId: 'L1' },
    ]);
    expect(added.status).toBe(201);
    for (const [batch, date] of [
      ['OLD', '2030-01-01T00:00:00.000Z'],
      ['NEW', '2031-01-01T00:00:00.000Z'],
      ['GONE', '2020-01-01T00:00:00.000Z'],
    ])
      expect(
        (
          await a.client.put(
            `/inventory/batches?stockSiteId=${src}&productId=${oak}&batchNumber=${batch}&locationId=L1&expirationDate=${date}`,
          )
        ).status,
      ).toBe(200);
  });
  afterAll(() => server.close());

  it('walks a transfer through every step; the searches of the specification answer the maintained figures', async () => {
    const id = await draft([{ productId: oak, quantity: 12, pricePerUnit: 2, unit: 'pc' }]);
    const srcId = (await stock(src)).id;
    expect((await a.client.patch(`/stock-transfers/${id}`, { status: 'REQUESTED' })).status).toBe(200);
    expect(await stock(src)).toMatchObject({ totalQuantity: 35, reservedQuantity: 0, availableQuantity: 35 });

    // APPROVED: reserved at the source, by this transfer.
    const approved = await a.client.patch(`/stock-transfers/${id}`, { status: 'APPROVED' });
    expect(approved.status).toBe(200);
    let source = await stock(src);
    expect(source).toMatchObject({ totalQuantity: 35, reservedQuantity: 12, availableQuantity: 23 });
    expect(source.reservations).toEqual([
      expect.objectContaining({
        reservationType: 'TRANSFER',
        reservationSourceId: id,
        quantity: 12,
        createdBy: a.adminEmail,
      }),
    ]);
    let t = await enriched(id);
    expect(t.reservedProducts).toEqual([
      { productId: oak, quantity: 12, siteId: src, siteName: 'Warehouse' },
    ]);
    expect(t.productStatus[0]).toMatchObject({ quantityReservedUnassigned: 12, quantityPicked: 0 });
    const search = await a.client.get(
      `/inventory/dynamic-product-stock-inventory-search?stockSiteId=${src}&destinationStockSiteId=${dst}&search=oak`,
    );
    expect(search.body.content[0]).toMatchObject({
      amountAvailable: 23,
      amountReserved: 12,
      totalAmount: 35,
    });
    expect(await everything()).toBe(35);

    // SHIPPED (over GraphQL): out of the first-expiring unexpired batches, in transit to the shop.
    await gql(a.client, UPDATE, { id, input: { status: 'SHIPPED' } });
    source = await stock(src);
    expect(source).toMatchObject({ totalQuantity: 23, reservedQuantity: 0, availableQuantity: 23 });
    expect(batches(source).sort()).toEqual([
      ['GONE', 5, '2020-01-01T00:00:00.000Z'],
      ['NEW', 18, '2031-01-01T00:00:00.000Z'],
    ]);
    let shop = await stock(dst);
    expect(shop).toMatchObject({ totalQuantity: 0, inTransitQuantity: 12, status: 'OUT_OF_STOCK' });
    expect(shop.inTransitStock).toEqual([expect.objectContaining({ transferId: id, quantity: 12 })]);
    t = await enriched(id);
    expect(t).toMatchObject({
      status: 'SHIPPED',
      incomingStockTransferStatus: 'EXPECTED',
      incomingStockTransferId: id,
    });
    expect(t.reservedProducts).toEqual([]);
    expect(t.products[0].batchAllocations).toEqual([
      {
        productId: oak,
        quantity: 10,
        batchNumber: 'OLD',
        locationId: 'L1',
        expirationDate: '2030-01-01T00:00:00.000Z',
      },
      {
        productId: oak,
        quantity: 2,
        batchNumber: 'NEW',
        locationId: 'L1',
        expirationDate: '2031-01-01T00:00:00.000Z',
      },
    ]);
    expect(t.productStatus[0]).toMatchObject({
      quantityShipped: 12,
      quantityPicked: 12,
      quantityPending: 12,
    });
    expect(await everything()).toBe(35);

    // A part arrives: as the batch it left, with its expiry and price.
    const partly = await a.client.patch(`/stock-transfers/${id}`, {
      status: 'PARTIALLY_DELIVERED',
      deliveredProducts: [{ productId: oak, quantity: 4, unit: 'pc' }],
    });
    expect(partly.status).toBe(200);
    shop = await stock(dst);
    expect(shop).toMatchObject({ totalQuantity: 4, inTransitQuantity: 8, unitPrice: 2, status: 'IN_STOCK' });
    expect(batches(shop)).toEqual([['OLD', 4, '2030-01-01T00:00:00.000Z']]);
    expect(await everything()).toBe(35);
    expectErrorBody(
      await a.client.patch(`/stock-transfers/${id}`, {
        deliveredProducts: [{ productId: oak, quantity: 2 }],
      }),
      409,
    );
    expectErrorBody(
      await a.client.patch(`/stock-transfers/${id}`, {
        deliveredProducts: [{ productId: oak, quantity: 13 }],
      }),
      400,
    );

    // DELIVERED: the rest arrives; nothing is left in transit.
    const done = await a.client.patch(`/stock-transfers/${id}`, { status: 'DELIVERED' });
    expect(done.status).toBe(200);
    shop = await stock(dst);
    expect(shop).toMatchObject({ totalQuantity: 12, inTransitQuantity: 0, inTransitStock: [] });
    expect(batches(shop).sort()).toEqual([
      ['NEW', 2, '2031-01-01T00:00:00.000Z'],
      ['OLD', 10, '2030-01-01T00:00:00.000Z'],
    ]);
    t = await enriched(id);
    expect(t).toMatchObject({ status: 'DELIVERED', incomingStockTransferStatus: 'RECEIVED' });
    expect(t.deliveryDate).not.toBeNull();
    expect(t.productStatus[0]).toMatchObject({
      quantityDelivered: 12,
      quantityPending: 0,
      finishedQuantity: 12,
    });
    expect(await everything()).toBe(35);

    // Each step that changed an inventory's figures says so, with the record as it is after.
    const srcEvents = await eventTypes(server, a.tenantId, srcId);
    expect(srcEvents.filter((e) => e === 'stock_inventory.quantity_changed').length).toBeGreaterThanOrEqual(
      2,
    );
    const dstEvents = await eventTypes(server, a.tenantId, shop.id);
    expect(dstEvents.filter((e) => e === 'stock_inventory.quantity_changed')).toHaveLength(2);

    // Shipped is final: no cancelling, no going back.
    expectErrorBody(await a.client.patch(`/stock-transfers/${id}`, { status: 'CANCELLED' }), 409);
    expectErrorBody(await a.client.patch(`/stock-transfers/${id}`, { status: 'APPROVED' }), 409);
  });

  it('not enough unexpired stock is a 409 naming product and site, and nothing changes', async () => {
    const before = await stock(src);
    // 23 in stock, but 5 of them expired: 19 cannot be reserved.
    const id = await draft([{ productId: oak, quantity: 19 }]);
    const res = await a.client.patch(`/stock-transfers/${id}`, { status: 'APPROVED' });
    expectErrorBody(res, 409);
    expect(res.body.detail).toContain(oak);
    expect(res.body.detail).toContain(src);
    const gqlRes = await a.client.graphql(UPDATE, { id, input: { status: 'SHIPPED' } });
    expect(gqlRes.body.errors![0].extensions!.status).toBe(409);
    expect((await a.client.get(`/stock-transfers/find/${id}`)).body).toMatchObject({
      status: 'DRAFT',
      reservedProducts: [],
    });
    const after = await stock(src);
    expect(after).toMatchObject({ totalQuantity: before.totalQuantity, reservedQuantity: 0 });
    expect(after.events.length).toBe(before.events.length);
  });

  it('cancelling or deleting before shipping releases the reservation', async () => {
    const id = await draft([{ productId: oak, quantity: 5 }]);
    expect((await a.client.patch(`/stock-transfers/${id}`, { status: 'APPROVED' })).status).toBe(200);
    expect(await stock(src)).toMatchObject({ reservedQuantity: 5 });
    // Changing the quantities of a reserved transfer changes its reservation.
    expect(
      (await a.client.patch(`/stock-transfers/${id}`, { products: [{ productId: oak, quantity: 7 }] }))
        .status,
    ).toBe(200);
    expect(await stock(src)).toMatchObject({ reservedQuantity: 7 });
    expect((await a.client.patch(`/stock-transfers/${id}`, { status: 'CANCELLED' })).status).toBe(200);
    expect(await stock(src)).toMatchObject({ reservedQuantity: 0, reservations: [] });
    expectErrorBody(await a.client.patch(`/stock-transfers/${id}`, { status: 'APPROVED' }), 409);

    const other = await draft([{ productId: oak, quantity: 3 }]);
    await gql(a.client, UPDATE, { id: other, input: { status: 'PICKING' } });
    expect(await stock(src)).toMatchObject({ reservedQuantity: 3 });
    expect((await a.client.delete(`/stock-transfers/delete-list?ids=${other}`)).status).toBe(204);
    expect(await stock(src)).toMatchObject({ reservedQuantity: 0 });

    const shipped = await draft([{ productId: oak, quantity: 1 }]);
    await gql(a.client, UPDATE, { id: shipped, input: { status: 'SHIPPED' } });
    expectErrorBody(await a.client.delete(`/stock-transfers/delete-list?ids=${shipped}`), 409);
    await gql(a.client, UPDATE, { id: shipped, input: { status: 'DELIVERED' } });
    expect(await everything()).toBe(35);
  });

  it('the figures the service keeps are not taken from clients', async () => {
    const id = await draft([{ productId: oak, quantity: 1 }]);
    // REST leaves out what the input does not take; GraphQL refuses it.
    const res = await a.client.patch(`/stock-transfers/${id}`, {
      reservedProducts: [{ productId: oak, quantity: 1, siteId: src }],
      batchAllocations: [{ productId: oak, quantity: 1 }],
      incomingStockTransferId: id,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      reservedProducts: [],
      batchAllocations: [],
      incomingStockTransferId: null,
    });
    for (const input of [
      { reservedProducts: [{ productId: oak, quantity: 1, siteId: src }] },
      { batchAllocations: [{ productId: oak, quantity: 1 }] },
      { incomingStockTransferStatus: 'RECEIVED' },
    ]) {
      const refused = await a.client.graphql(UPDATE, { id, input });
      expect(refused.body.errors![0].extensions!.status).toBe(400);
    }
    const inv = await stock(src);
    const transit = await a.client.graphql(
      `mutation($id: ID!) { updateStockInventory(id: $id, input: {inTransitStock: [{quantity: 5}]}) { id } }`,
      { id: inv.id },
    );
    expect(transit.body.errors![0].extensions!.status).toBe(400);
    const transfer = await a.client.graphql(
      `mutation($id: ID!) { updateStockInventory(id: $id, input: {reservations: [{quantity: 1, reservationType: TRANSFER}]}) { id } }`,
      { id: inv.id },
    );
    expect(transfer.body.errors![0].extensions!.status).toBe(400);
    expect(
      (
        await a.client.patch(`/stock-transfers/${id}`, {
          deliveredProducts: [{ productId: oak, quantity: 1 }],
        })
      ).status,
    ).toBe(400);
  });

  it('8 concurrent transfers of one product between two sites: the total across sites and in transit is unchanged', async () => {
    const beech = await createProduct(a.client, { name: 'Beech plank' });
    const north = await createSite(a.client, 'North');
    const south = await createSite(a.client, 'South');
    await addStock(a.client, north, [{ productId: beech, quantity: 50, price: 1 }]);
    await addStock(a.client, south, [{ productId: beech, quantity: 50, price: 1 }]);
    const ids = [];
    for (let i = 0; i < 8; i++)
      ids.push(
        await draft([{ productId: beech, quantity: 15 }], i % 2 ? north : south, i % 2 ? south : north),
      );
    const runs = await Promise.all(
      ids.map(async (id) => {
        const seen: { status: number; detail?: string }[] = [];
        for (const status of ['APPROVED', 'SHIPPED', 'DELIVERED']) {
          const res = await a.client.patch(`/stock-transfers/${id}`, { status });
          seen.push({ status: res.status, detail: res.body.detail });
          if (res.status !== 200) break;
        }
        return seen;
      }),
    );
    // 60 asked of each site's 50: a transfer moves entirely, or is refused at its reservation for
    // want of stock (never a deadlock, a lost update or an error).
    for (const seen of runs) {
      if (seen[0].status === 200) expect(seen.map((x) => x.status)).toEqual([200, 200, 200]);
      else {
        expect(seen).toHaveLength(1);
        expect(seen[0].status).toBe(409);
        expect(seen[0].detail).toContain('available');
      }
    }
    expect(runs.filter((seen) => seen[0].status === 200).length).toBeGreaterThanOrEqual(6);
    expect(await everything(beech, [north, south])).toBe(100);
    for (const site of [north, south])
      expect(await stock(site, beech)).toMatchObject({ reservedQuantity: 0, inTransitQuantity: 0 });
  });
});
