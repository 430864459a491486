import { startServer, type TestServer, type TestTenant } from '../support/server';
import { storedFile } from '../support/files';
import { expectErrorBody } from '../support/http';
import {
  addStock,
  createProduct,
  createSite,
  FIELDS,
  gql,
  ISO,
  keys,
  MISSING,
  sorted,
  UUID,
} from './helpers';

const SEARCH_FORM = sorted([...FIELDS.transferCommon, ...FIELDS.transferSearch]);
const ENRICHED_FORM = sorted([...FIELDS.transferCommon, ...FIELDS.transferEnriched]);

const UPDATE = `mutation($id: ID!, $input: StockTransferInput!) { updateStockTransfer(id: $id, input: $input) { id transferNumber status isFullyCancelled } }`;

describe('Stock transfers', () => {
  let server: TestServer;
  let oakImageId: string;
  let a: TestTenant;
  let from: string;
  let to: string;
  let oak: string;
  let pine: string;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Transfers');
    from = await createSite(a.client, 'Source');
    to = await createSite(a.client, 'Destination');
    const { file: oakImage } = await storedFile(server.baseUrl, a, { name: 'oak.png' });
    oakImageId = oakImage.blobId;
    oak = await createProduct(a.client, {
      name: 'Oak plank',
      imageAssets: [{ blobId: oakImage.blobId, type: 'IMAGE' }],
      unitsOfMeasurement: [{ unit: 'pc', name: 'Piece', quantity: 1, baseUnit: true, isBaseUnit: true }],
    });
    pine = await createProduct(a.client, { name: 'Pine plank' });
    await addStock(a.client, from, [{ productId: oak, quantity: 40, price: 2 }]);
  });
  afterAll(() => server.close());

  const empty = (client = a.client) => client.post('/stock-transfers/empty');

  describe('POST /stock-transfers/empty', () => {
    it('creates a DRAFT with the next number, 201 and a Location, in the enriched form', async () => {
      const res = await empty();
      expect(res.status).toBe(201);
      expect(keys(res.body)).toEqual(ENRICHED_FORM);
      expect(res.headers.get('location')).toBe(`/api/v1/stock-transfers/find/${res.body.id}`);
      expect(res.body).toEqual({
        tenantId: a.tenantId,
        id: expect.stringMatching(UUID),
        transferNumber: 'ST-000001',
        note: null,
        stockSiteId: null,
        subsidiaryId: null,
        incomingStockTransferId: null,
        status: 'DRAFT',
        priority: 'LOW',
        deliveryMethod: 'REGULAR',
        deliveryDate: null,
        picklistIds: [],
        batchAllocations: [],
        products: [],
        reservedProducts: [],
        destinationSiteId: null,
        incomingStockTransferStatus: null,
        cancelledProducts: [],
        productStatus: [],
        reservationsGroupedBySite: {},
        events: [
          expect.objectContaining({ type: 'CREATE', authorId: a.adminId, date: expect.stringMatching(ISO) }),
        ],
        created: expect.stringMatching(ISO),
        createdBy: a.adminEmail,
        updated: expect.stringMatching(ISO),
        updatedBy: a.adminEmail,
      });
      const found = await a.client.get(`/stock-transfers/find/${res.body.id}`);
      expect(found.status).toBe(200);
      expect(keys(found.body)).toEqual(SEARCH_FORM);
      expect(found.body.cancelledProducts).toEqual({ isNotEmpty: false, products: [] });
    });

    it('numbers are unique and consecutive per tenant, also when drafts are made in parallel', async () => {
      const t = await server.tenant('Numbers');
      const res = await Promise.all(Array.from({ length: 12 }, () => empty(t.client)));
      expect(res.map((r) => r.status)).toEqual(Array(12).fill(201));
      expect(res.map((r) => r.body.transferNumber).sort()).toEqual(
        Array.from({ length: 12 }, (_, i) => `ST-${String(i + 1).padStart(6, '0')}`),
      );
      // The family's GraphQL create draws from the same sequence.
      const created = await gql(
        t.client,
        `mutation { createStockTransfer(input: {note: "by GraphQL"}) { transferNumber status } }`,
      );
      expect(created.createStockTransfer).toEqual({ transferNumber: 'ST-000013', status: 'DRAFT' });
    });

    it('needs CREATE_STOCK_TRANSFERS', async () => {
      const reader = await a.userWith(['READ_STOCK_TRANSFERS']);
      expectErrorBody(await empty(reader.client), 403);
      const writer = await a.userWith(['CREATE_STOCK_TRANSFERS']);
      expect((await empty(writer.client)).status).toBe(201);
    });
  });

  describe('a transfer under way', () => {
    let id: string;
    beforeAll(async () => {
      await addStock(a.client, from, [{ productId: pine, quantity: 10, price: 1 }]);
      id = (await empty()).body.id;
      const res = await a.client.graphql(UPDATE, {
        id,
        input: {
          note: 'Weekly refill',
          stockSiteId: from,
          destinationStockSiteId: to,
          priority: 'HIGH',
          deliveryMethod: 'EXPRESS',
          deliveryDate: '2027-02-01T08:00:00.000Z',
          picklistIds: ['PL-1'],
          products: [
            { productId: oak, quantity: 10, pricePerUnit: 2.5, unit: 'box', baseUnitConversion: 4 },
            { productId: pine, quantity: 6, pricePerUnit: 1, unit: 'pc' },
          ],
          cancelledProducts: { products: [{ productId: pine, quantity: 2, unit: 'pc' }] },
          deliveredProducts: [{ productId: oak, quantity: 3, unit: 'box' }],
          returnedProducts: [{ productId: oak, quantity: 1, unit: 'box' }],
          // Shipping takes the stock out of the source; what is delivered arrives at once, so the
          // transfer is PARTIALLY_DELIVERED (transfer-moves.test.ts follows each step).
          status: 'SHIPPED',
        },
      });
      expect(res.body.errors).toBeUndefined();
    });

    it('the enriched search computes product status, product details, stock and reservations', async () => {
      const res = await a.client.post('/stock-transfers/dynamic-search-enriched', { filters: { id } });
      expect(res.status).toBe(200);
      expect(keys(res.body)).toEqual(sorted(FIELDS.page));
      expect(res.body.totalElements).toBe(1);
      const t = res.body.content[0];
      expect(keys(t)).toEqual(ENRICHED_FORM);
      expect(t).toMatchObject({
        note: 'Weekly refill',
        stockSiteId: from,
        destinationSiteId: to,
        status: 'PARTIALLY_DELIVERED',
        priority: 'HIGH',
        deliveryMethod: 'EXPRESS',
        deliveryDate: '2027-02-01T08:00:00.000Z',
        picklistIds: ['PL-1'],
        incomingStockTransferId: id,
        incomingStockTransferStatus: 'PARTIALLY_RECEIVED',
        cancelledProducts: [{ productId: pine, quantity: 2, unit: 'pc' }],
      });
      // Newest first: shipped, then (by the delivery in the same request) partially delivered.
      const changes = t.events.filter((e: any) => e.type === 'STATUS_CHANGE').map((e: any) => e.description);
      expect(changes.sort()).toEqual(['DRAFT -> SHIPPED', 'SHIPPED -> PARTIALLY_DELIVERED']);
      for (const s of t.productStatus) expect(keys(s)).toEqual(sorted(FIELDS.productStatus));
      expect(t.productStatus).toEqual([
        {
          productId: oak,
          quantityOrdered: 10,
          quantityCancelled: 0,
          quantityDelivered: 3,
          quantityReturned: 1,
          quantityPicked: 10,
          quantityShipped: 10,
          quantityPending: 7,
          quantityCanBeCancelled: 0,
          quantityReservedPicklist: 0,
          quantityReservedUnassigned: 0,
          finishedQuantity: 3,
          unitPrice: 2.5,
          returnStarted: true,
        },
        {
          productId: pine,
          quantityOrdered: 6,
          quantityCancelled: 2,
          quantityDelivered: 0,
          quantityReturned: 0,
          quantityPicked: 4,
          quantityShipped: 4,
          quantityPending: 4,
          quantityCanBeCancelled: 0,
          quantityReservedPicklist: 0,
          quantityReservedUnassigned: 0,
          finishedQuantity: 2,
          unitPrice: 1,
          returnStarted: false,
        },
      ]);
      for (const p of t.products) expect(keys(p)).toEqual(sorted(FIELDS.enrichedProduct));
      expect(t.products[0]).toEqual({
        productId: oak,
        productName: 'Oak plank',
        unit: 'box',
        quantity: 10,
        baseUnitConversion: 4,
        baseUnitQuantity: 40,
        pricePerUnit: 2.5,
        pricePerBaseUnit: 0.625,
        totalPrice: 25,
        price: 2.5,
        // All 40 base units (10 boxes of 4) left the source.
        availableStock: 0,
        pending: 7,
        quantityCancelled: 0,
        quantityDelivered: 3,
        quantityPicked: 10,
        quantityReturned: 1,
        quantityShipped: 10,
        totalReserved: 0,
        returnStarted: true,
        imageAssets: [expect.objectContaining({ blobId: oakImageId })],
        unitsOfMeasurement: [expect.objectContaining({ unit: 'pc', baseUnit: true, isBaseUnit: true })],
        batchAllocations: [
          { productId: oak, quantity: 40, batchNumber: null, locationId: null, expirationDate: null },
        ],
        reservations: [],
      });
      expect(t.products[1]).toMatchObject({
        productName: 'Pine plank',
        availableStock: 6,
        totalPrice: 6,
        baseUnitQuantity: 6,
      });
      // Shipped: the reservations ended when the stock left.
      expect(t.reservedProducts).toEqual([]);
      expect(t.reservationsGroupedBySite).toEqual({});
    });

    it('the search form shows cancelled products as {isNotEmpty, products} and the stored lines', async () => {
      const res = await a.client.get(`/stock-transfers/dynamic-search?filters=id:eq:${id}`);
      expect(res.status).toBe(200);
      const t = res.body.content[0];
      expect(keys(t)).toEqual(SEARCH_FORM);
      expect(t).toMatchObject({
        destinationStockSiteId: to,
        isFullyCancelled: false,
        cancelledProducts: { isNotEmpty: true, products: [{ productId: pine, quantity: 2, unit: 'pc' }] },
        reservedProducts: [],
      });
      expect(t.products[0]).toEqual({
        productId: oak,
        unit: 'box',
        quantity: 10,
        baseUnitConversion: 4,
        baseUnitQuantity: 40,
        pricePerUnit: 2.5,
        pricePerBaseUnit: 0.625,
        totalPrice: 25,
      });
    });

    it('cancelling everything makes it fully cancelled', async () => {
      const other = (await empty()).body.id;
      await gql(a.client, UPDATE, {
        id: other,
        input: {
          products: [{ productId: oak, quantity: 3 }],
          cancelledProducts: { products: [{ productId: oak, quantity: 3 }] },
        },
      });
      const res = await a.client.post('/stock-transfers/dynamic-search', { filters: { id: other } });
      expect(res.body.content[0]).toMatchObject({
        isFullyCancelled: true,
        cancelledProducts: { isNotEmpty: true },
      });
      const cancelled = (await empty()).body.id;
      const updated = await gql(a.client, UPDATE, { id: cancelled, input: { status: 'CANCELLED' } });
      expect(updated.updateStockTransfer).toMatchObject({ status: 'CANCELLED', isFullyCancelled: true });
    });

    it('quantities and sites are checked: 400 for impossible figures, 404 for unknown records', async () => {
      const t = (await empty()).body.id;
      const fails = async (input: object, status: number) => {
        const res = await a.client.graphql(UPDATE, { id: t, input });
        expect(res.body.errors?.[0].extensions?.status).toBe(status);
      };
      await fails(
        {
          products: [{ productId: oak, quantity: 1 }],
          cancelledProducts: { products: [{ productId: oak, quantity: 2 }] },
        },
        400,
      );
      // Picked quantities are the service's, so a client cannot send them at all.
      await fails(
        { products: [{ productId: oak, quantity: 1 }], batchAllocations: [{ productId: oak, quantity: 2 }] },
        400,
      );
      await fails(
        {
          products: [{ productId: oak, quantity: 1 }],
          deliveredProducts: [{ productId: oak, quantity: 1 }],
          returnedProducts: [{ productId: oak, quantity: 2 }],
        },
        400,
      );
      await fails({ products: [{ productId: oak, quantity: -1 }] }, 400);
      await fails({ stockSiteId: from, destinationStockSiteId: from }, 400);
      await fails({ stockSiteId: 'nope' }, 400);
      await fails({ stockSiteId: MISSING }, 404);
      await fails({ products: [{ productId: MISSING, quantity: 1 }] }, 404);
      const missing = await a.client.graphql(UPDATE, { id: MISSING, input: { note: 'x' } });
      expect(missing.body.errors![0].extensions!.status).toBe(404);
    });
  });

  describe('the family: S6, S7, S8, S9', () => {
    let t: TestTenant;
    const numbers = (res: any) => res.body.content.map((x: any) => x.transferNumber);
    beforeAll(async () => {
      t = await server.tenant('Family');
      for (let i = 0; i < 3; i++) await empty(t.client);
      const site = await createSite(t.client, 'T site');
      const second = (
        await t.client.get('/stock-transfers/dynamic-search?filters=transferNumber:eq:ST-000002')
      ).body.content[0];
      await gql(t.client, UPDATE, {
        id: second.id,
        input: { status: 'REQUESTED', note: 'urgent please', stockSiteId: site },
      });
    });

    it('GET dynamic-search searches, filters, sorts and pages the search form', async () => {
      expect(numbers(await t.client.get('/stock-transfers/dynamic-search?sort=transferNumber,desc'))).toEqual(
        ['ST-000003', 'ST-000002', 'ST-000001'],
      );
      expect(numbers(await t.client.get('/stock-transfers/dynamic-search?search=URGENT'))).toEqual([
        'ST-000002',
      ]);
      expect(numbers(await t.client.get('/stock-transfers/dynamic-search?filters=status:eq:DRAFT'))).toEqual([
        'ST-000001',
        'ST-000003',
      ]);
      expect(
        numbers(await t.client.get('/stock-transfers/dynamic-search?filters=stockSiteId:notNull')),
      ).toEqual(['ST-000002']);
      const page = await t.client.get(
        '/stock-transfers/dynamic-search?size=2&page=1&sort=transferNumber,asc',
      );
      expect(page.body).toMatchObject({ totalElements: 3, totalPages: 2, number: 1, size: 2, last: true });
      expect(numbers(page)).toEqual(['ST-000003']);
      for (const x of page.body.content) expect(keys(x)).toEqual(SEARCH_FORM);
      expectErrorBody(await t.client.get('/stock-transfers/dynamic-search?filters=status:eq:LOST'), 400);
      expectErrorBody(await t.client.get('/stock-transfers/dynamic-search?filters=colour:eq:red'), 400);
    });

    it('POST dynamic-search and dynamic-search-enriched take the body form', async () => {
      const res = await t.client.post('/stock-transfers/dynamic-search', {
        filters: { status: ['DRAFT', 'REQUESTED'], transferNumber: { ne: 'ST-000001' } },
        sort: [{ field: 'transferNumber', ascending: false }],
      });
      expect(res.status).toBe(200);
      expect(numbers(res)).toEqual(['ST-000003', 'ST-000002']);
      const enriched = await t.client.post('/stock-transfers/dynamic-search-enriched', {
        search: ['urgent'],
        page: 0,
        size: 5,
        sort: [{ field: 'created', ascending: true }],
      });
      expect(enriched.status).toBe(200);
      expect(numbers(enriched)).toEqual(['ST-000002']);
      expect(keys(enriched.body.content[0])).toEqual(ENRICHED_FORM);
      const byDestination = await t.client.post('/stock-transfers/dynamic-search-enriched', {
        filters: { destinationSiteId: null },
      });
      expect(byDestination.body.totalElements).toBe(3);
      expectErrorBody(
        await t.client.post('/stock-transfers/dynamic-search-enriched', { filters: { colour: 'red' } }),
        400,
      );
      expectErrorBody(await t.client.post('/stock-transfers/dynamic-search-enriched', { size: 'ten' }), 400);
    });

    it('GET csv-export answers the search form as CSV text', async () => {
      const res = await t.client.get('/stock-transfers/csv-export?sort=transferNumber,asc');
      expect(res.status).toBe(200);
      const lines = res.body.trim().split('\r\n');
      expect(lines).toHaveLength(4);
      expect(lines[0].split(',')).toEqual(
        expect.arrayContaining([
          'transferNumber',
          'status',
          'isFullyCancelled',
          'cancelledProducts.isNotEmpty',
          'products',
        ]),
      );
      expect(lines[0]).not.toContain('deliveredProducts');
      expect(lines[1]).toContain('ST-000001');
    });

    it('DELETE delete-list deletes the transfers named (204)', async () => {
      const doomed = (await empty(t.client)).body;
      expect((await t.client.delete(`/stock-transfers/delete-list?ids=${doomed.id},${MISSING}`)).status).toBe(
        204,
      );
      expect(
        (await t.client.get(`/stock-transfers/dynamic-search?filters=id:eq:${doomed.id}`)).body.totalElements,
      ).toBe(0);
      expectErrorBody(await t.client.delete('/stock-transfers/delete-list'), 400);
    });

    it('reads need READ_STOCK_TRANSFERS, deletes DELETE_STOCK_TRANSFERS', async () => {
      const inventoryOnly = await t.userWith(['READ_INVENTORY', 'CREATE_STOCK_TRANSFERS']);
      expectErrorBody(await inventoryOnly.client.get('/stock-transfers/dynamic-search'), 403);
      expectErrorBody(await inventoryOnly.client.post('/stock-transfers/dynamic-search', {}), 403);
      expectErrorBody(await inventoryOnly.client.post('/stock-transfers/dynamic-search-enriched', {}), 403);
      expectErrorBody(await inventoryOnly.client.get('/stock-transfers/csv-export'), 403);
      expectErrorBody(await inventoryOnly.client.delete(`/stock-transfers/delete-list?ids=${MISSING}`), 403);
      const reader = await t.userWith(['READ_STOCK_TRANSFERS']);
      expect(
        (await reader.client.post('/stock-transfers/dynamic-search-enriched', {})).body.totalElements,
      ).toBe(3);
    });
  });

  it("tenancy: a second tenant can neither see, export nor delete the first tenant's transfers", async () => {
    const mine = (await empty()).body;
    const b = await server.tenant('Stranger');
    expectErrorBody(await b.client.get(`/stock-transfers/find/${mine.id}`), 404);
    expect((await b.client.get('/stock-transfers/dynamic-search')).body.totalElements).toBe(0);
    expect((await b.client.post('/stock-transfers/dynamic-search', {})).body.totalElements).toBe(0);
    expect((await b.client.post('/stock-transfers/dynamic-search-enriched', {})).body.totalElements).toBe(0);
    expect((await b.client.get('/stock-transfers/csv-export')).body.trim().split('\r\n')).toHaveLength(1);
    expect((await b.client.delete(`/stock-transfers/delete-list?ids=${mine.id}`)).status).toBe(204);
    expect((await a.client.get(`/stock-transfers/find/${mine.id}`)).status).toBe(200);
    const theirs = await b.client.graphql(UPDATE, { id: mine.id, input: { note: 'mine now' } });
    expect(theirs.body.errors![0].extensions!.status).toBe(404);
    expect((await b.client.post('/stock-transfers/empty')).body.transferNumber).toBe('ST-000001');
  });
});
