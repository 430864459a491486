import { startServer, type TestServer, type TestTenant } from '../support/server';
import { storedFile } from '../support/files';
import { expectErrorBody } from '../support/http';
import {
  addStock,
  createProduct,
  createSite,
  createSubsidiary,
  FIELDS,
  gql,
  ISO,
  keys,
  MISSING,
  sorted,
  UUID,
} from './helpers';

describe('Inventory over REST', () => {
  let server: TestServer;
  let a: TestTenant;
  let site: string;
  let oak: string;
  let pine: string;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Inventory');
    site = await createSite(a.client, 'Main warehouse');
    oak = await createProduct(a.client, {
      name: 'Oak plank',
      brand: 'Woody',
      category: 'wood',
      unitPrice: 9,
    });
    pine = await createProduct(a.client, {
      name: 'Pine plank',
      brand: 'Woody',
      category: 'wood',
      unitPrice: 4,
    });
  });
  afterAll(() => server.close());

  const find = async (id: string) => (await a.client.get(`/inventory/find/${id}`)).body;

  describe('POST /inventory', () => {
    it('creates an inventory with 201, Location, the full shape and a CREATE event; a body tenantId is ignored', async () => {
      const s = await createSite(a.client, 'Create site');
      const res = await addStock(
        a.client,
        s,
        [
          {
            productId: oak,
            quantity: 10,
            price: 2,
            batchNumber: 'B1',
            locationId: 'A-01',
            originalPurchaseOrderId: 'PO-7',
            stockSource: 'PURCHASE_ORDER',
          },
        ],
        { tenantId: MISSING },
      );
      expect(res.status).toBe(201);
      expect(res.body).toHaveLength(1);
      const inv = res.body[0];
      expect(keys(inv)).toEqual(sorted(FIELDS.inventory));
      expect(res.headers.get('location')).toBe(`/api/v1/inventory/find/${inv.id}`);
      expect(inv).toMatchObject({
        tenantId: a.tenantId,
        id: expect.stringMatching(UUID),
        productId: oak,
        siteId: s,
        subsidiaryId: null,
        status: 'IN_STOCK',
        totalQuantity: 10,
        reservedQuantity: 0,
        inTransitQuantity: 0,
        availableQuantity: 10,
        minimum: null,
        maximum: null,
        unitPrice: 2,
        inTransitStock: [],
        reservations: [],
        createdBy: a.adminEmail,
        created: expect.stringMatching(ISO),
        updated: expect.stringMatching(ISO),
      });
      expect(inv.events).toEqual([
        {
          id: expect.stringMatching(UUID),
          type: 'CREATE',
          date: expect.stringMatching(ISO),
          authorId: a.adminId,
          description: expect.any(String),
        },
      ]);
      expect(inv.locations).toHaveLength(1);
      expect(keys(inv.locations[0])).toEqual(sorted(FIELDS.location));
      expect(inv.locations[0]).toMatchObject({
        id: 'A-01',
        totalQuantity: 10,
        lastStockDate: expect.stringMatching(ISO),
        earliestExpirationDate: null,
      });
      expect(keys(inv.locations[0].batches[0])).toEqual(sorted(FIELDS.batch));
      expect(inv.locations[0].batches[0]).toEqual({
        batchNumber: 'B1',
        expirationDate: null,
        lastStockDate: expect.stringMatching(ISO),
        originalPurchaseOrderId: 'PO-7',
        productionDate: null,
        quantity: 10,
        stockSource: 'PURCHASE_ORDER',
        uomSplit: [],
      });
      expect(await find(inv.id)).toEqual(inv);
    });

    it('merges into the batch with the same number and location, averages the price by quantity, and appends UPDATE', async () => {
      const s = await createSite(a.client, 'Merge site');
      await addStock(a.client, s, [
        { productId: oak, quantity: 10, price: 2, batchNumber: 'B1', locationId: 'A-01' },
      ]);
      const res = await addStock(a.client, s, [
        { productId: oak, quantity: 30, price: 4, batchNumber: 'B1', locationId: 'A-01' },
        { productId: oak, quantity: 5, price: 1, batchNumber: 'B2', locationId: 'A-01' },
        { productId: oak, quantity: 5, price: 1, batchNumber: 'B1', locationId: 'B-02' },
      ]);
      expect(res.status).toBe(201);
      const inv = res.body[0];
      expect(inv.totalQuantity).toBe(50);
      expect(inv.availableQuantity).toBe(50);
      // (10*2 + 30*4 + 5*1 + 5*1) / 50
      expect(inv.unitPrice).toBe(3);
      expect(inv.events.map((e: any) => e.type)).toEqual(['CREATE', 'UPDATE']);
      expect(inv.events[1].description).toContain('totalQuantity');
      expect(inv.locations.map((l: any) => [l.id, l.totalQuantity])).toEqual([
        ['A-01', 45],
        ['B-02', 5],
      ]);
      const a01 = inv.locations[0].batches.map((b: any) => [b.batchNumber, b.quantity]);
      expect(a01).toEqual(
        expect.arrayContaining([
          ['B1', 40],
          ['B2', 5],
        ]),
      );
    });

    it('answers one inventory per product, in the order the products first appear', async () => {
      const s = await createSite(a.client, 'Multi site');
      const res = await addStock(a.client, s, [
        { productId: pine, quantity: 1, price: 1 },
        { productId: oak, quantity: 2, price: 1 },
        { productId: pine, quantity: 3, price: 1 },
      ]);
      expect(res.status).toBe(201);
      expect(res.body.map((i: any) => [i.productId, i.totalQuantity])).toEqual([
        [pine, 4],
        [oak, 2],
      ]);
    });

    it('values stock sent without a price at the current valuation, or the list price for new stock', async () => {
      const s = await createSite(a.client, 'Price site');
      const first = await addStock(a.client, s, [{ productId: oak, quantity: 4 }]);
      expect(first.body[0].unitPrice).toBe(9);
      await addStock(a.client, s, [{ productId: oak, quantity: 4, price: 1 }]);
      const third = await addStock(a.client, s, [{ productId: oak, quantity: 8 }]);
      expect(third.body[0].unitPrice).toBe(5);
    });

    it('takes the subsidiary from the site; another subsidiary is a 400', async () => {
      const sub = await createSubsidiary(a.client, 'North');
      const other = await createSubsidiary(a.client, 'South');
      const s = await createSite(a.client, 'North site', sub);
      const res = await addStock(a.client, s, [{ productId: oak, quantity: 1, price: 1 }]);
      expect(res.body[0].subsidiaryId).toBe(sub);
      const bad = await addStock(a.client, s, [{ productId: oak, quantity: 1 }], { subsidiaryId: other });
      expectErrorBody(bad, 400);
      expect(bad.body.detail).toContain('subsidiaryId');
    });

    it('refuses bad input with 400 naming the field', async () => {
      for (const [body, field] of [
        [{ stockSiteId: site, products: [] }, 'products'],
        [{ stockSiteId: site, products: [{ productId: oak, quantity: 0 }] }, 'quantity'],
        [{ stockSiteId: site, products: [{ productId: oak, quantity: -3 }] }, 'quantity'],
        [{ stockSiteId: site, products: [{ productId: oak, quantity: 1, price: -1 }] }, 'price'],
        [{ stockSiteId: site, products: [{ productId: oak, quantity: 'many' }] }, 'quantity'],
        [
          { stockSiteId: site, products: [{ productId: oak, quantity: 1, stockSource: 'GIFT' }] },
          'stockSource',
        ],
        [{ products: [{ productId: oak, quantity: 1 }] }, 'stockSiteId'],
        [{ stockSiteId: site }, 'products'],
      ] as const) {
        const res = await a.client.post('/inventory', body);
        expectErrorBody(res, 400);
        expect(res.body.detail).toContain(field);
      }
    });

    it('is 404 for an unknown or malformed product or site, and stores nothing then', async () => {
      const s = await createSite(a.client, 'Missing site');
      for (const body of [
        {
          stockSiteId: s,
          products: [
            { productId: oak, quantity: 1 },
            { productId: MISSING, quantity: 1 },
          ],
        },
        { stockSiteId: s, products: [{ productId: 'not-an-id', quantity: 1 }] },
        { stockSiteId: MISSING, products: [{ productId: oak, quantity: 1 }] },
        { stockSiteId: 'nope', products: [{ productId: oak, quantity: 1 }] },
      ]) {
        expectErrorBody(await a.client.post('/inventory', body), 404);
      }
      const page = await a.client.get(`/inventory/dynamic-search?filters=siteId:eq:${s}`);
      expect(page.body.totalElements).toBe(0);
    });

    it("needs CREATE_INVENTORY (403), and a site in the caller's subsidiaries (404 otherwise)", async () => {
      const reader = await a.userWith(['READ_INVENTORY']);
      expectErrorBody(await addStock(reader.client, site, [{ productId: oak, quantity: 1 }]), 403);
      const sub = await createSubsidiary(a.client, 'Closed');
      const closed = await createSite(a.client, 'Closed site', sub);
      const creator = await a.userWith(['CREATE_INVENTORY', 'READ_INVENTORY']);
      expectErrorBody(await addStock(creator.client, closed, [{ productId: oak, quantity: 1 }]), 404);
      const ok = await addStock(creator.client, site, [{ productId: oak, quantity: 1 }]);
      expect(ok.status).toBe(201);
      expect(ok.body[0].createdBy === a.adminEmail || ok.body[0].updatedBy === creator.email).toBe(true);
    });
  });

  describe('POST /inventory/adjust', () => {
    it('lowers the quantity by taking from the first-expiring batches, and records "quantity A -> B"', async () => {
      const s = await createSite(a.client, 'Adjust site');
      await addStock(a.client, s, [
        { productId: oak, quantity: 10, price: 2, batchNumber: 'LATE', locationId: 'L1' },
        { productId: oak, quantity: 10, price: 2, batchNumber: 'SOON', locationId: 'L1' },
      ]);
      await a.client.put(
        `/inventory/batches?stockSiteId=${s}&productId=${oak}&batchNumber=SOON&locationId=L1&expirationDate=2027-01-01T00:00:00.000Z`,
      );
      await a.client.put(
        `/inventory/batches?stockSiteId=${s}&productId=${oak}&batchNumber=LATE&locationId=L1&expirationDate=2028-01-01T00:00:00.000Z`,
      );
      const res = await a.client.post('/inventory/adjust', {
        productId: oak,
        stockSiteId: s,
        newQuantity: 12,
        newUnitPrice: 3,
      });
      expect(res.status).toBe(200);
      expect(keys(res.body)).toEqual(sorted(FIELDS.inventory));
      expect(res.body).toMatchObject({
        totalQuantity: 12,
        availableQuantity: 12,
        unitPrice: 3,
        status: 'IN_STOCK',
      });
      expect(res.body.locations[0].batches.map((b: any) => [b.batchNumber, b.quantity])).toEqual([
        ['SOON', 2],
        ['LATE', 10],
      ]);
      const adjusted = res.body.events.filter((e: any) => e.description?.startsWith('Adjusted'));
      expect(adjusted).toEqual([
        expect.objectContaining({
          type: 'UPDATE',
          authorId: a.adminId,
          description: 'Adjusted quantity 20 -> 12, unitPrice 2 -> 3',
        }),
      ]);
    });

    it('raises the quantity through an ADJUSTMENT batch without number or location', async () => {
      const s = await createSite(a.client, 'Raise site');
      await addStock(a.client, s, [
        { productId: pine, quantity: 5, price: 2, batchNumber: 'P1', locationId: 'L1' },
      ]);
      const res = await a.client.post('/inventory/adjust', {
        productId: pine,
        stockSiteId: s,
        newQuantity: 8,
      });
      expect(res.status).toBe(200);
      expect(res.body.totalQuantity).toBe(8);
      expect(res.body.unitPrice).toBe(2);
      const unlocated = res.body.locations.find((l: any) => l.id === null);
      expect(unlocated.batches).toEqual([
        expect.objectContaining({ batchNumber: null, quantity: 3, stockSource: 'ADJUSTMENT' }),
      ]);
    });

    it('makes the inventory when the site has none, and can count down to zero (OUT_OF_STOCK)', async () => {
      const s = await createSite(a.client, 'Count site');
      const made = await a.client.post('/inventory/adjust', {
        productId: oak,
        stockSiteId: s,
        newQuantity: 7,
        newUnitPrice: 1.5,
      });
      expect(made.status).toBe(200);
      expect(made.body).toMatchObject({ totalQuantity: 7, unitPrice: 1.5, status: 'IN_STOCK' });
      expect(made.body.events.map((e: any) => e.type)).toEqual(['CREATE', 'UPDATE']);
      expect(made.body.events[1].description).toBe('Adjusted quantity 0 -> 7, unitPrice 0 -> 1.5');
      const zero = await a.client.post('/inventory/adjust', {
        productId: oak,
        stockSiteId: s,
        newQuantity: 0,
      });
      expect(zero.body).toMatchObject({
        totalQuantity: 0,
        availableQuantity: 0,
        status: 'OUT_OF_STOCK',
        locations: [],
      });
      expect(zero.body.events.map((e: any) => e.type)).toContain('STATUS_CHANGE');
      expect(zero.body.events.find((e: any) => e.type === 'STATUS_CHANGE').description).toBe(
        'IN_STOCK -> OUT_OF_STOCK',
      );
    });

    it('refuses bad input (400), unknown records (404), and callers without UPDATE_INVENTORY (403)', async () => {
      for (const body of [
        { productId: oak, stockSiteId: site, newQuantity: -1 },
        { productId: oak, stockSiteId: site, newQuantity: 1, newUnitPrice: -2 },
        { productId: oak, stockSiteId: site },
        { productId: oak, stockSiteId: site, newQuantity: 'x' },
      ]) {
        const res = await a.client.post('/inventory/adjust', body);
        expectErrorBody(res, 400);
        expect(res.body.detail).toMatch(/newQuantity|newUnitPrice/);
      }
      expectErrorBody(
        await a.client.post('/inventory/adjust', { productId: MISSING, stockSiteId: site, newQuantity: 1 }),
        404,
      );
      expectErrorBody(
        await a.client.post('/inventory/adjust', { productId: oak, stockSiteId: MISSING, newQuantity: 1 }),
        404,
      );
      const creator = await a.userWith(['CREATE_INVENTORY', 'READ_INVENTORY']);
      expectErrorBody(
        await creator.client.post('/inventory/adjust', { productId: oak, stockSiteId: site, newQuantity: 1 }),
        403,
      );
    });
  });

  describe('PUT /inventory/batches', () => {
    it('changes the dates and quantity of one batch from query parameters; the inventory follows', async () => {
      const start = new Date().toISOString();
      const s = await createSite(a.client, 'Batch site');
      await addStock(a.client, s, [
        { productId: oak, quantity: 10, price: 2, batchNumber: 'B1', locationId: 'L1' },
        { productId: oak, quantity: 10, price: 4, batchNumber: 'B2', locationId: 'L1' },
      ]);
      const res = await a.client.put(
        `/inventory/batches?stockSiteId=${s}&productId=${oak}&batchNumber=B2&locationId=L1&quantity=30&expirationDate=2027-03-01T00:00:00.000Z&productionDate=2026-01-01T00:00:00.000Z`,
      );
      expect(res.status).toBe(200);
      expect(keys(res.body)).toEqual(sorted(FIELDS.inventory));
      expect(res.body.totalQuantity).toBe(40);
      expect(res.body.unitPrice).toBe(3.5);
      expect(res.body.locations[0]).toMatchObject({
        id: 'L1',
        totalQuantity: 40,
        earliestExpirationDate: '2027-03-01T00:00:00.000Z',
      });
      const b2 = res.body.locations[0].batches.find((b: any) => b.batchNumber === 'B2');
      expect(b2).toMatchObject({
        quantity: 30,
        expirationDate: '2027-03-01T00:00:00.000Z',
        productionDate: '2026-01-01T00:00:00.000Z',
      });
      const last = res.body.events.find((e: any) => e.description?.startsWith('Changed batch B2'));
      expect(last.description).toContain('quantity 10 -> 30');

      const removed = await a.client.put(
        `/inventory/batches?stockSiteId=${s}&productId=${oak}&batchNumber=B1&locationId=L1&quantity=0`,
      );
      expect(removed.body.totalQuantity).toBe(30);
      expect(removed.body.locations[0].batches.map((b: any) => b.batchNumber)).toEqual(['B2']);

      // Each batch keeps a history of its own, newest first, its values before and after.
      const entries = (await a.client.get(`/audit-log?recordType=StockBatch&from=${start}&pageSize=100`)).body
        .content as {
        type: string;
        recordId: string;
        changes: { field: string; old: unknown; new: unknown }[];
      }[];
      const change = (e: (typeof entries)[number], field: string) => e.changes.find((c) => c.field === field);
      const idOf = (batch: string) =>
        entries.find((e) => e.type === 'CREATE' && change(e, 'batchNumber')?.new === batch)!.recordId;
      const historyOf = (batch: string) => entries.filter((e) => e.recordId === idOf(batch));
      expect(historyOf('B2').map((e) => e.type)).toEqual(['UPDATE', 'CREATE']);
      expect(change(historyOf('B2')[0], 'quantity')).toMatchObject({ old: 10, new: 30 });
      expect(historyOf('B1').map((e) => e.type)).toEqual(['DELETE', 'CREATE']);
    });

    it('is 404 for an unknown batch or product, 400 for bad parameters, 403 without UPDATE_INVENTORY', async () => {
      const s = await createSite(a.client, 'Batch errors');
      await addStock(a.client, s, [{ productId: oak, quantity: 1, batchNumber: 'B1' }]);
      expectErrorBody(
        await a.client.put(`/inventory/batches?stockSiteId=${s}&productId=${oak}&batchNumber=NOPE`),
        404,
      );
      expectErrorBody(
        await a.client.put(`/inventory/batches?stockSiteId=${s}&productId=${pine}&batchNumber=B1`),
        404,
      );
      expectErrorBody(
        await a.client.put(`/inventory/batches?stockSiteId=${s}&productId=${MISSING}&batchNumber=B1`),
        404,
      );
      for (const [qs, field] of [
        [`stockSiteId=${s}&productId=${oak}&batchNumber=B1&quantity=abc`, 'quantity'],
        [`stockSiteId=${s}&productId=${oak}&batchNumber=B1&quantity=-1`, 'quantity'],
        [`stockSiteId=${s}&productId=${oak}&batchNumber=B1&expirationDate=tomorrow`, 'expirationDate'],
        [`productId=${oak}&batchNumber=B1`, 'stockSiteId'],
        [`stockSiteId=${s}&stockSiteId=${s}&productId=${oak}`, 'stockSiteId'],
      ] as const) {
        const res = await a.client.put(`/inventory/batches?${qs}`);
        expectErrorBody(res, 400);
        expect(res.body.detail).toContain(field);
      }
      const reader = await a.userWith(['READ_INVENTORY']);
      expectErrorBody(
        await reader.client.put(
          `/inventory/batches?stockSiteId=${s}&productId=${oak}&batchNumber=B1&quantity=2`,
        ),
        403,
      );
    });
  });

  describe('GET /inventory/batch-search', () => {
    let s: string;
    let steel: string;
    let beamId: string;
    beforeAll(async () => {
      s = await createSite(a.client, 'Search site');
      const { file: beam } = await storedFile(server.baseUrl, a, { name: 'beam.png' });
      beamId = beam.blobId;
      steel = await createProduct(a.client, {
        name: 'Steel beam',
        brand: 'Ironclad',
        category: 'metal',
        imageAssets: [{ blobId: beam.blobId }],
      });
      await addStock(a.client, s, [
        { productId: oak, quantity: 5, price: 3, batchNumber: 'OAK-1', locationId: 'L1' },
        { productId: oak, quantity: 7, price: 2, batchNumber: 'OAK-2', locationId: 'L2' },
        { productId: steel, quantity: 2, price: 50, batchNumber: 'ST-1', locationId: 'L1' },
      ]);
      const put = (qs: string) => a.client.put(`/inventory/batches?stockSiteId=${s}&${qs}`);
      await put(
        `productId=${oak}&batchNumber=OAK-1&locationId=L1&expirationDate=2027-06-01T00:00:00.000Z&productionDate=2026-01-01T00:00:00.000Z`,
      );
      await put(`productId=${oak}&batchNumber=OAK-2&locationId=L2&expirationDate=2027-01-01T00:00:00.000Z`);
      // Stock elsewhere never shows here.
      await addStock(a.client, site, [{ productId: oak, quantity: 1, batchNumber: 'ELSEWHERE' }]);
    });

    const search = async (qs = '') => {
      const res = await a.client.get(`/inventory/batch-search?stockSiteId=${s}${qs}`);
      expect(res.status).toBe(200);
      return res.body;
    };
    const numbers = async (qs = '') => (await search(qs)).content.map((r: any) => r.batchNumber);

    it('pages the batches of the site, joined with their products, sorted by product name by default', async () => {
      const page = await search();
      expect(keys(page)).toEqual(sorted(FIELDS.page));
      expect(page).toMatchObject({
        totalElements: 3,
        number: 0,
        size: 20,
        first: true,
        last: true,
        numberOfElements: 3,
      });
      expect(page.sort).toEqual({ empty: false, sorted: true, unsorted: false });
      expect(page.content.map((r: any) => r.productName)).toEqual(['Oak plank', 'Oak plank', 'Steel beam']);
      for (const row of page.content) expect(keys(row)).toEqual(sorted(FIELDS.batchRow));
      expect(page.content.find((r: any) => r.batchNumber === 'ST-1')).toEqual({
        batchNumber: 'ST-1',
        brand: 'Ironclad',
        category: 'metal',
        locationId: 'L1',
        productId: steel,
        productName: 'Steel beam',
        expirationDate: null,
        lastStockDate: expect.stringMatching(ISO),
        productionDate: null,
        quantity: 2,
        unitPrice: 50,
        imageAssets: [expect.objectContaining({ blobId: beamId, name: 'beam.png', type: 'IMAGE' })],
      });
      expect(page.content.find((r: any) => r.batchNumber === 'OAK-1')).toMatchObject({
        expirationDate: '2027-06-01T00:00:00.000Z',
        productionDate: '2026-01-01T00:00:00.000Z',
      });
    });

    it('filters by every parameter', async () => {
      expect(await numbers('&search=steel')).toEqual(['ST-1']);
      expect(await numbers('&search=oak')).toEqual(['OAK-1', 'OAK-2']);
      expect(await numbers('&search=oak%20L2')).toEqual(['OAK-2']);
      expect(await numbers('&search=iron')).toEqual(['ST-1']);
      expect(await numbers('&category=WOOD')).toEqual(['OAK-1', 'OAK-2']);
      expect(await numbers('&brand=ironclad')).toEqual(['ST-1']);
      expect(await numbers('&batchNumber=oak-2')).toEqual(['OAK-2']);
      expect(await numbers('&locationId=L1')).toEqual(['OAK-1', 'ST-1']);
      expect(await numbers('&expiryFrom=2027-02-01T00:00:00.000Z')).toEqual(['OAK-1']);
      expect(await numbers('&expiryTo=2027-02-01T00:00:00.000Z')).toEqual(['OAK-2']);
      expect(
        await numbers('&stockDateFrom=2000-01-01T00:00:00.000Z&stockDateTo=2999-01-01T00:00:00.000Z'),
      ).toHaveLength(3);
      expect(await numbers('&stockDateTo=2000-01-01T00:00:00.000Z')).toEqual([]);
      expect(await numbers('&search=100%25')).toEqual([]);
    });

    it('sorts by each documented key in both directions, and pages', async () => {
      expect(await numbers('&sortBy=quantity&direction=DESC')).toEqual(['OAK-2', 'OAK-1', 'ST-1']);
      expect(await numbers('&sortBy=unitPrice')).toEqual(['OAK-2', 'OAK-1', 'ST-1']);
      expect(await numbers('&sortBy=expirationDate')).toEqual(['OAK-2', 'OAK-1', 'ST-1']);
      expect(await numbers('&sortBy=expirationDate&direction=DESC')).toEqual(['OAK-1', 'OAK-2', 'ST-1']);
      expect(await numbers('&sortBy=batchNumber&direction=DESC')).toEqual(['ST-1', 'OAK-2', 'OAK-1']);
      expect(await numbers('&sortBy=brand&direction=DESC')).toEqual(['OAK-1', 'OAK-2', 'ST-1']);
      expect(await numbers('&sortBy=category')).toEqual(['ST-1', 'OAK-1', 'OAK-2']);
      expect(await numbers('&sortBy=productionDate')).toEqual(['OAK-1', 'OAK-2', 'ST-1']);
      expect(await numbers('&sortBy=lastStockDate')).toHaveLength(3);
      expect(await numbers('&sortBy=productName&direction=DESC')).toEqual(['ST-1', 'OAK-1', 'OAK-2']);
      const second = await search('&page=1&size=2');
      expect(second).toMatchObject({
        number: 1,
        size: 2,
        totalElements: 3,
        totalPages: 2,
        first: false,
        last: true,
      });
      expect(second.content.map((r: any) => r.batchNumber)).toEqual(['ST-1']);
    });

    it('is 400 for missing or bad parameters, 404 for an unknown site, 403 without READ_INVENTORY', async () => {
      for (const [qs, field] of [
        ['', 'stockSiteId'],
        [`?stockSiteId=${s}&sortBy=colour`, 'sortBy'],
        [`?stockSiteId=${s}&direction=UP`, 'direction'],
        [`?stockSiteId=${s}&expiryFrom=soon`, 'expiryFrom'],
        [`?stockSiteId=${s}&size=0`, 'size'],
        [`?stockSiteId=${s}&size=1001`, 'size'],
        [`?stockSiteId=${s}&page=-1`, 'page'],
      ]) {
        const res = await a.client.get(`/inventory/batch-search${qs}`);
        expectErrorBody(res, 400);
        expect(res.body.detail).toContain(field);
      }
      expectErrorBody(await a.client.get(`/inventory/batch-search?stockSiteId=${MISSING}`), 404);
      expectErrorBody(await a.client.get(`/inventory/batch-search?stockSiteId=garbage`), 404);
      const other = await a.userWith(['READ_STOCK_TRANSFERS']);
      expectErrorBody(await other.client.get(`/inventory/batch-search?stockSiteId=${s}`), 403);
    });
  });

  describe('GET /inventory/dynamic-product-stock-inventory-search', () => {
    let from: string;
    let to: string;
    let tile: string;
    beforeAll(async () => {
      from = await createSite(a.client, 'From');
      to = await createSite(a.client, 'To');
      tile = await createProduct(a.client, {
        name: 'Zinc tile',
        productType: 'RAW_MATERIAL',
        salesPrice: 12,
        currency: 'EUR',
        imageBlobId: 'blob-9',
        unitPrice: 6,
        baseUnit: { unit: 'pc', name: 'Piece', baseUnit: true, isBaseUnit: true, quantity: 1 },
        unitsOfMeasurement: [{ unit: 'box', name: 'Box', quantity: 10 }],
      });
      await addStock(a.client, from, [{ productId: tile, quantity: 20, price: 5 }]);
      await addStock(a.client, to, [{ productId: tile, quantity: 3, price: 5 }]);
      const inv = (await a.client.get(`/inventory/dynamic-search?filters=siteId:eq:${to}`)).body.content[0];
      await gql(
        a.client,
        `mutation($id: ID!, $input: UpdateStockInventoryInput!) { updateStockInventory(id: $id, input: $input) { id } }`,
        {
          id: inv.id,
          input: {
            minimum: 5,
            maximum: 50,
            reservations: [{ quantity: 1, reservationSourceId: 'SO-1', reservationType: 'ORDER' }],
          },
        },
      );
    });

    it('answers a row per product with its stock at the site and at the destination', async () => {
      const res = await a.client.get(
        `/inventory/dynamic-product-stock-inventory-search?stockSiteId=${from}&destinationStockSiteId=${to}&search=zinc`,
      );
      expect(res.status).toBe(200);
      expect(keys(res.body)).toEqual(sorted(FIELDS.page));
      expect(res.body.totalElements).toBe(1);
      const row = res.body.content[0];
      expect(keys(row)).toEqual(sorted(FIELDS.productStockRow));
      expect(row).toEqual({
        amountAvailable: 20,
        amountReserved: 0,
        totalAmount: 20,
        minimum: null,
        maximum: null,
        unitPrice: 5,
        salesPrice: 12,
        currency: 'EUR',
        imageBlobId: 'blob-9',
        productId: tile,
        productName: 'Zinc tile',
        productType: 'RAW_MATERIAL',
        stockSiteId: from,
        stockSiteName: 'From',
        subsidiaryId: null,
        baseUnit: expect.objectContaining({ unit: 'pc', baseUnit: true, isBaseUnit: true }),
        unitsOfMeasurement: [expect.objectContaining({ unit: 'box', quantity: 10 })],
        destinationProductInfo: {
          amountAvailable: 2,
          amountReserved: 1,
          totalAmount: 3,
          minimum: 5,
          maximum: 50,
          stockSiteId: to,
          stockSiteName: 'To',
        },
      });
      expect(keys(row.destinationProductInfo)).toEqual(sorted(FIELDS.destinationInfo));
    });

    it('shows zero for products the site does not hold; no destination gives null; filters and sorts by row fields', async () => {
      const res = await a.client.get(
        `/inventory/dynamic-product-stock-inventory-search?stockSiteId=${to}&sort=productName,desc&filters=productName:contains:plank`,
      );
      expect(res.status).toBe(200);
      expect(res.body.content.map((r: any) => r.productName)).toEqual(['Pine plank', 'Oak plank']);
      for (const row of res.body.content) {
        expect(row).toMatchObject({
          totalAmount: 0,
          amountAvailable: 0,
          stockSiteId: to,
          destinationProductInfo: null,
        });
      }
      const typed = await a.client.get(
        `/inventory/dynamic-product-stock-inventory-search?filters=productType:eq:RAW_MATERIAL`,
      );
      expect(typed.body.content.map((r: any) => r.productName)).toEqual(['Zinc tile']);
      // No site: the figures of every site together.
      expect(typed.body.content[0]).toMatchObject({
        totalAmount: 23,
        amountReserved: 1,
        amountAvailable: 22,
        stockSiteId: null,
      });
    });

    it('is 400 for unknown fields, 404 for unknown sites, 403 without READ_INVENTORY', async () => {
      const bad = await a.client.get(
        `/inventory/dynamic-product-stock-inventory-search?filters=colour:eq:red`,
      );
      expectErrorBody(bad, 400);
      expect(bad.body.detail).toContain('colour');
      expectErrorBody(
        await a.client.get(`/inventory/dynamic-product-stock-inventory-search?sort=colour,asc`),
        400,
      );
      expectErrorBody(await a.client.get(`/inventory/dynamic-product-stock-inventory-search?size=5000`), 400);
      expectErrorBody(
        await a.client.get(`/inventory/dynamic-product-stock-inventory-search?stockSiteId=${MISSING}`),
        404,
      );
      expectErrorBody(
        await a.client.get(
          `/inventory/dynamic-product-stock-inventory-search?stockSiteId=${from}&destinationStockSiteId=x`,
        ),
        404,
      );
      const waste = await a.userWith(['READ_WASTE']);
      expectErrorBody(await waste.client.get(`/inventory/dynamic-product-stock-inventory-search`), 403);
    });

    it('filters and sorts on the stock figures in SQL, so a page and its total agree', async () => {
      const beam = await createProduct(a.client, { name: 'Figure beam', productType: 'SEMI_FINISHED' });
      await addStock(a.client, from, [{ productId: beam, quantity: 7, price: 2 }]);
      const url = '/inventory/dynamic-product-stock-inventory-search';
      const ids = (res: { body: { content: { productId: string }[] } }) =>
        res.body.content.map((r) => r.productId);
      // At `from` only the tile (20) and the beam (7) have stock; every other product shows 0.
      const first = await a.client.get(
        `${url}?stockSiteId=${from}&filters=totalAmount:gt:0&sort=totalAmount,asc&size=1`,
      );
      expect(first.status).toBe(200);
      expect(first.body.totalElements).toBe(2);
      expect(ids(first)).toEqual([beam]);
      const second = await a.client.get(
        `${url}?stockSiteId=${from}&filters=totalAmount:gt:0&sort=totalAmount,asc&size=1&page=1`,
      );
      expect(ids(second)).toEqual([tile]);
      expect(second.body.content[0].totalAmount).toBe(20);
      const top = await a.client.get(`${url}?stockSiteId=${from}&sort=amountAvailable,desc&size=2`);
      expect(ids(top)).toEqual([tile, beam]);
      // No site: the figures of every site together (the tile holds 20 + 3, one reserved).
      const summed = await a.client.get(`${url}?filters=amountAvailable:eq:22&filters=amountReserved:eq:1`);
      expect(ids(summed)).toEqual([tile]);
      // Thresholds are null where no inventory sets them; a price without stock is the product's.
      const limited = await a.client.get(`${url}?stockSiteId=${to}&filters=minimum:notNull`);
      expect(ids(limited)).toEqual([tile]);
      expect(limited.body.totalElements).toBe(1);
      const priced = await a.client.get(
        `${url}?stockSiteId=${from}&filters=unitPrice:eq:2&filters=totalAmount:gt:0`,
      );
      expect(ids(priced)).toEqual([beam]);
      expectErrorBody(await a.client.get(`${url}?filters=totalAmount:gt:lots`), 400);
      expectErrorBody(await a.client.get(`${url}?filters=totalAmount:contains:2`), 400);
    });

    it("filters and sorts on the destination's figures, the sites and the product's other fields", async () => {
      const url = '/inventory/dynamic-product-stock-inventory-search';
      const ids = (res: { body: { content: { productId: string }[] } }) =>
        res.body.content.map((r) => r.productId);
      const there = await a.client.get(
        `${url}?stockSiteId=${from}&destinationStockSiteId=${to}&filters=destinationProductInfo.totalAmount:gt:0&sort=destinationProductInfo.amountAvailable,desc`,
      );
      expect(there.status).toBe(200);
      expect(ids(there)).toEqual([tile]);
      expect(there.body.totalElements).toBe(1);
      const reserved = await a.client.get(
        `${url}?stockSiteId=${from}&destinationStockSiteId=${to}&filters=destinationProductInfo.amountReserved:eq:1&filters=destinationProductInfo.stockSiteName:eq:To`,
      );
      expect(ids(reserved)).toEqual([tile]);
      // Without a destination its info is null for every row.
      const none = await a.client.get(`${url}?filters=destinationProductInfo.totalAmount:notNull`);
      expect(none.body.totalElements).toBe(0);
      const atFrom = await a.client.get(
        `${url}?stockSiteId=${from}&filters=stockSiteName:eq:From&filters=imageBlobId:eq:blob-9&filters=subsidiaryId:isNull`,
      );
      expect(ids(atFrom)).toEqual([tile]);
      const withUnit = await a.client.get(`${url}?filters=baseUnit:contains:Piece`);
      expect(ids(withUnit)).toEqual([tile]);
      // The product's units: some unit matches, the list empty or not; not a sort key.
      const inBoxes = await a.client.get(
        `${url}?filters=unitsOfMeasurement.unit:eq:box&filters=unitsOfMeasurement.quantity:gte:10`,
      );
      expect(ids(inBoxes)).toEqual([tile]);
      const noPallets = await a.client.get(`${url}?filters=unitsOfMeasurement.unit:eq:pallet`);
      expect(noPallets.body.totalElements).toBe(0);
      const withUnits = await a.client.get(`${url}?filters=unitsOfMeasurement:notNull`);
      expect(ids(withUnits)).toContain(tile);
      const withoutUnits = await a.client.get(`${url}?filters=unitsOfMeasurement:isNull`);
      expect(ids(withoutUnits)).not.toContain(tile);
      expectErrorBody(await a.client.get(`${url}?sort=unitsOfMeasurement.unit,asc`), 400);
      expectErrorBody(await a.client.get(`${url}?filters=destinationProductInfo.colour:eq:red`), 400);
    });
  });

  describe('the family: S6, S8, S9', () => {
    it('GET /inventory/dynamic-search filters, sorts and pages inventories', async () => {
      const s = await createSite(a.client, 'Family site');
      await addStock(a.client, s, [
        { productId: oak, quantity: 3, price: 1 },
        { productId: pine, quantity: 8, price: 1 },
      ]);
      const res = await a.client.get(
        `/inventory/dynamic-search?filters=siteId:eq:${s}&sort=totalQuantity,desc`,
      );
      expect(res.status).toBe(200);
      expect(keys(res.body)).toEqual(sorted(FIELDS.page));
      expect(res.body.content.map((i: any) => i.totalQuantity)).toEqual([8, 3]);
      for (const inv of res.body.content) expect(keys(inv)).toEqual(sorted(FIELDS.inventory));
      const gt = await a.client.get(
        `/inventory/dynamic-search?filters=siteId:eq:${s}&filters=availableQuantity:gt:5`,
      );
      expect(gt.body.content.map((i: any) => i.productId)).toEqual([pine]);
      const status = await a.client.get(`/inventory/dynamic-search?search=in_stock&filters=siteId:eq:${s}`);
      expect(status.body.totalElements).toBe(2);
      expectErrorBody(await a.client.get('/inventory/dynamic-search?filters=colour:eq:red'), 400);
      expectErrorBody(await a.client.get('/inventory/dynamic-search?filters=status:eq:MAYBE'), 400);
    });

    it('GET /inventory/csv-export answers CSV text with the stored fields', async () => {
      const s = await createSite(a.client, 'CSV site');
      await addStock(a.client, s, [{ productId: oak, quantity: 3, price: 1.25 }]);
      const res = await a.client.get(`/inventory/csv-export?filters=siteId:eq:${s}`);
      expect(res.status).toBe(200);
      expect(typeof res.body).toBe('string');
      const [header, row] = res.body.trim().split('\r\n');
      expect(header.split(',')).toEqual(
        expect.arrayContaining([
          'id',
          'productId',
          'siteId',
          'status',
          'totalQuantity',
          'unitPrice',
          'reservations',
        ]),
      );
      expect(header).not.toContain('version');
      expect(row).toContain('IN_STOCK');
      expect(row).toContain('1.25');
    });

    it('DELETE /inventory/delete-list deletes the inventories and their batches (204); ids are required', async () => {
      const s = await createSite(a.client, 'Delete site');
      const inv = (await addStock(a.client, s, [{ productId: oak, quantity: 3, batchNumber: 'GONE' }]))
        .body[0];
      const reader = await a.userWith(['READ_INVENTORY']);
      expectErrorBody(await reader.client.delete(`/inventory/delete-list?ids=${inv.id}`), 403);
      const res = await a.client.delete(`/inventory/delete-list?ids=${inv.id},${MISSING}`);
      expect(res.status).toBe(204);
      expectErrorBody(await a.client.get(`/inventory/find/${inv.id}`), 404);
      expect((await a.client.get(`/inventory/batch-search?stockSiteId=${s}`)).body.totalElements).toBe(0);
      const rows = await server.orm.em
        .getConnection()
        .execute(`select count(*)::int as n from stock_batch where tenant_id = ? and inventory_id = ?`, [
          a.tenantId,
          inv.id,
        ]);
      expect(rows[0].n).toBe(0);
      // Stock can come in again afterwards: a fresh inventory.
      const again = await addStock(a.client, s, [{ productId: oak, quantity: 2, batchNumber: 'GONE' }]);
      expect(again.body[0]).toMatchObject({ totalQuantity: 2 });
      expect(again.body[0].id).not.toBe(inv.id);
      expectErrorBody(await a.client.delete('/inventory/delete-list'), 400);
    });
  });

  describe('GraphQL: thresholds, reservations, stock in transit', () => {
    it('an empty inventory with a minimum; reservations make stock LOW, never more than in stock (409)', async () => {
      const s = await createSite(a.client, 'Threshold site');
      const created = await gql(
        a.client,
        `mutation($input: CreateStockInventoryInput!) { createStockInventory(input: $input) { id status totalQuantity minimum maximum locations { id } } }`,
        { input: { productId: oak, siteId: s, minimum: 4, maximum: 20 } },
      );
      expect(created.createStockInventory).toMatchObject({
        status: 'OUT_OF_STOCK',
        totalQuantity: 0,
        minimum: 4,
        maximum: 20,
        locations: [],
      });
      const id = created.createStockInventory.id;
      const stocked = await addStock(a.client, s, [{ productId: oak, quantity: 10, price: 1 }]);
      expect(stocked.body[0]).toMatchObject({ id, status: 'IN_STOCK', totalQuantity: 10 });

      const update = (input: object) =>
        a.client.graphql(
          `mutation($id: ID!, $input: UpdateStockInventoryInput!) { updateStockInventory(id: $id, input: $input) { status reservedQuantity availableQuantity inTransitQuantity reservations { quantity reservationSourceId reservationType created createdBy updated updatedBy } inTransitStock { quantity transferId created createdBy } events { type description } } }`,
          { id, input },
        );
      // Stock in transit is the transfers' (transfer-moves.test.ts): not sent by clients.
      const res = await update({
        reservations: [{ quantity: 7, reservationSourceId: 'SO-1', reservationType: 'ORDER' }],
      });
      expect(res.body.errors).toBeUndefined();
      const inv = res.body.data.updateStockInventory;
      expect(inv).toMatchObject({
        status: 'LOW_STOCK',
        reservedQuantity: 7,
        availableQuantity: 3,
        inTransitQuantity: 0,
      });
      expect(inv.reservations[0]).toEqual({
        quantity: 7,
        reservationSourceId: 'SO-1',
        reservationType: 'ORDER',
        created: expect.stringMatching(ISO),
        createdBy: a.adminEmail,
        updated: expect.stringMatching(ISO),
        updatedBy: a.adminEmail,
      });
      expect(inv.events.map((e: any) => e.type)).toContain('STATUS_CHANGE');
      expect(inv.events.filter((e: any) => e.type === 'STATUS_CHANGE').pop().description).toBe(
        'IN_STOCK -> LOW_STOCK',
      );

      const reserved = await a.client.get(`/inventory/find/${id}`);
      expect(reserved.body.reservations).toHaveLength(1);
      expect(reserved.body.inTransitStock).toEqual([]);

      // Reserved stock can neither be adjusted away nor wasted.
      expectErrorBody(
        await a.client.post('/inventory/adjust', { productId: oak, stockSiteId: s, newQuantity: 6 }),
        409,
      );
      const over = await update({
        reservations: [{ quantity: 11, reservationSourceId: 'SO-1', reservationType: 'ORDER' }],
      });
      expect(over.body.errors![0].extensions!.code).toBe('CONFLICT');
      const dup = await a.client.graphql(
        `mutation($input: CreateStockInventoryInput!) { createStockInventory(input: $input) { id } }`,
        { input: { productId: oak, siteId: s } },
      );
      expect(dup.body.errors![0].extensions!.status).toBe(409);
      const badMin = await a.client.graphql(
        `mutation($id: ID!) { updateStockInventory(id: $id, input: {minimum: 30}) { id } }`,
        { id },
      );
      expect(badMin.body.errors![0].extensions!.status).toBe(400);
    });
  });

  describe('tenancy and data scope', () => {
    it("a second tenant can neither read, list, export, search batches of nor delete the first tenant's stock", async () => {
      const s = await createSite(a.client, 'Private site');
      const inv = (await addStock(a.client, s, [{ productId: oak, quantity: 9, batchNumber: 'PRIVATE' }]))
        .body[0];
      const b = await server.tenant('Other');
      expectErrorBody(await b.client.get(`/inventory/find/${inv.id}`), 404);
      const list = await b.client.get(`/inventory/dynamic-search?filters=id:eq:${inv.id}`);
      expect(list.body.totalElements).toBe(0);
      expect((await b.client.get(`/inventory/dynamic-search`)).body.totalElements).toBe(0);
      const csv = await b.client.get(`/inventory/csv-export`);
      expect(csv.body.trim().split('\r\n')).toHaveLength(1);
      expectErrorBody(await b.client.get(`/inventory/batch-search?stockSiteId=${s}`), 404);
      expectErrorBody(await addStock(b.client, s, [{ productId: oak, quantity: 1 }]), 404);
      const otherProduct = await createProduct(b.client, { name: 'B product' });
      const otherSite = await createSite(b.client, 'B site');
      expectErrorBody(await addStock(b.client, otherSite, [{ productId: oak, quantity: 1 }]), 404);
      await addStock(b.client, otherSite, [{ productId: otherProduct, quantity: 1 }]);
      const stock = await b.client.get(`/inventory/dynamic-product-stock-inventory-search`);
      expect(stock.body.content.map((r: any) => r.productName)).toEqual(['B product']);
      expect((await b.client.delete(`/inventory/delete-list?ids=${inv.id}`)).status).toBe(204);
      expect((await a.client.get(`/inventory/find/${inv.id}`)).body.totalQuantity).toBe(9);
    });

    it('a user limited to some subsidiaries sees only their inventories', async () => {
      const north = await createSubsidiary(a.client, 'Scope north');
      const south = await createSubsidiary(a.client, 'Scope south');
      const ns = await createSite(a.client, 'Scope N', north);
      const ss = await createSite(a.client, 'Scope S', south);
      const n = (await addStock(a.client, ns, [{ productId: pine, quantity: 1 }])).body[0];
      const so = (await addStock(a.client, ss, [{ productId: pine, quantity: 1 }])).body[0];
      const user = await a.userWith(['READ_INVENTORY', 'UPDATE_INVENTORY'], { subsidiaryAccess: [north] });
      const res = await user.client.get(
        `/inventory/dynamic-search?filters=productId:eq:${pine}&filters=subsidiaryId:notNull`,
      );
      expect(res.body.content.map((i: any) => i.id)).toEqual([n.id]);
      expectErrorBody(await user.client.get(`/inventory/find/${so.id}`), 404);
      expectErrorBody(await user.client.get(`/inventory/batch-search?stockSiteId=${ss}`), 404);
      expectErrorBody(
        await user.client.post('/inventory/adjust', { productId: pine, stockSiteId: ss, newQuantity: 0 }),
        404,
      );
      const ok = await user.client.post('/inventory/adjust', {
        productId: pine,
        stockSiteId: ns,
        newQuantity: 4,
      });
      expect(ok.body.totalQuantity).toBe(4);
    });
  });
});
