import { randomUUID } from 'node:crypto';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { storedFile } from '../support/files';
import { expectErrorBody } from '../support/http';
import { dayFromToday } from '../support/dates';
import {
  addStock,
  createProduct,
  createSite,
  createSubsidiary,
  FIELDS,
  ISO,
  keys,
  MISSING,
  sorted,
  UUID,
} from './helpers';

describe('Waste management', () => {
  let server: TestServer;
  let a: TestTenant;
  let site: string;
  let flour: string;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Waste');
    site = await createSite(a.client, 'Bakery');
    flour = await createProduct(a.client, { name: 'Flour', productType: 'RAW_MATERIAL' });
  });
  afterAll(() => server.close());

  const register = (dto: Record<string, unknown>, client = a.client) =>
    client.post('/waste-management', { dto });
  const stockOf = async (siteId: string, productId: string) => {
    const res = await a.client.get(
      `/inventory/dynamic-search?filters=siteId:eq:${siteId}&filters=productId:eq:${productId}`,
    );
    return res.body.content[0];
  };

  describe('POST /waste-management', () => {
    it('registers waste with 201, a Location, the full shape and a CREATE event; dto.tenantId is ignored', async () => {
      const shiftId = randomUUID();
      const { image: photo } = await storedFile(server.baseUrl, a, { width: 10, height: 20 });
      const res = await register({
        productId: flour,
        quantity: 2.5,
        reason: 'Spilled',
        stockSiteId: site,
        shiftId,
        approvedBy: 'Chef',
        image: { blobId: photo.blobId, width: 10, height: 20, thumbnailBlobId: 'thumb' },
        tenantId: MISSING,
      });
      expect(res.status).toBe(201);
      expect(keys(res.body)).toEqual(sorted(FIELDS.waste));
      expect(res.headers.get('location')).toBe(`/api/v1/waste-management/find/${res.body.id}`);
      expect(res.body).toEqual({
        tenantId: a.tenantId,
        id: expect.stringMatching(UUID),
        productId: flour,
        quantity: 2.5,
        reason: 'Spilled',
        stockSiteId: site,
        shiftId,
        subsidiaryId: null,
        approvedBy: 'Chef',
        deductRawMaterials: false,
        image: { blobId: photo.blobId, width: 10, height: 20, thumbnailBlobId: photo.thumbnailBlobId },
        events: [
          expect.objectContaining({ type: 'CREATE', authorId: a.adminId, date: expect.stringMatching(ISO) }),
        ],
        created: expect.stringMatching(ISO),
        createdBy: a.adminEmail,
        updated: expect.stringMatching(ISO),
        updatedBy: a.adminEmail,
      });
      const again = await a.client.get(`/waste-management/find/${res.body.id}`);
      expect(again.body).toEqual(res.body);
      const minimal = await register({ productId: flour, quantity: 1 });
      expect(minimal.status).toBe(201);
      expect(minimal.body).toMatchObject({
        reason: null,
        stockSiteId: null,
        shiftId: null,
        image: null,
        approvedBy: null,
      });
    });

    it('takes the subsidiary from the site', async () => {
      const sub = await createSubsidiary(a.client, 'Kitchen');
      const s = await createSite(a.client, 'Kitchen store', sub);
      const res = await register({ productId: flour, quantity: 1, stockSiteId: s });
      expect(res.body.subsidiaryId).toBe(sub);
    });

    it('refuses bad input with 400 naming the field, unknown product or site with 404', async () => {
      for (const [body, field] of [
        [{ dto: { productId: flour, quantity: 0 } }, 'quantity'],
        [{ dto: { productId: flour, quantity: -2 } }, 'quantity'],
        [{ dto: { productId: flour, quantity: 'lots' } }, 'quantity'],
        [{ dto: { quantity: 1 } }, 'productId'],
        [{ dto: { productId: flour, quantity: 1, shiftId: 'morning' } }, 'shiftId'],
        [{ dto: { productId: flour, quantity: 1, deductRawMaterials: true } }, 'stockSiteId'],
        [{ productId: flour, quantity: 1 }, 'dto'],
      ] as const) {
        const res = await a.client.post('/waste-management', body);
        expectErrorBody(res, 400);
        expect(res.body.detail).toContain(field);
      }
      expectErrorBody(await register({ productId: MISSING, quantity: 1 }), 404);
      expectErrorBody(await register({ productId: 'flour', quantity: 1 }), 404);
      expectErrorBody(await register({ productId: flour, quantity: 1, stockSiteId: MISSING }), 404);
    });

    it('needs CREATE_WASTE', async () => {
      const reader = await a.userWith(['READ_WASTE', 'CREATE_INVENTORY']);
      expectErrorBody(await register({ productId: flour, quantity: 1 }, reader.client), 403);
    });
  });

  describe('deducting raw materials', () => {
    it('takes the quantity out of the stock at the site, first-expiring batches first', async () => {
      const s = await createSite(a.client, 'Deduct site');
      await addStock(a.client, s, [
        { productId: flour, quantity: 6, price: 1, batchNumber: 'NEW', locationId: 'L1' },
        { productId: flour, quantity: 4, price: 1, batchNumber: 'OLD', locationId: 'L1' },
      ]);
      await a.client.put(
        `/inventory/batches?stockSiteId=${s}&productId=${flour}&batchNumber=OLD&locationId=L1&expirationDate=${dayFromToday(30)}`,
      );
      await a.client.put(
        `/inventory/batches?stockSiteId=${s}&productId=${flour}&batchNumber=NEW&locationId=L1&expirationDate=${dayFromToday(365)}`,
      );
      expect((await stockOf(s, flour)).totalQuantity).toBe(10);

      const res = await register({
        productId: flour,
        quantity: 5,
        stockSiteId: s,
        deductRawMaterials: true,
        reason: 'Mould',
      });
      expect(res.status).toBe(201);
      expect(res.body.deductRawMaterials).toBe(true);
      const after = await stockOf(s, flour);
      expect(after).toMatchObject({ totalQuantity: 5, availableQuantity: 5 });
      expect(after.locations[0].batches.map((b: any) => [b.batchNumber, b.quantity])).toEqual([['NEW', 5]]);
      expect(after.events.map((e: any) => e.description)).toContain(
        `Deducted 5 as waste (waste record ${res.body.id})`,
      );
    });

    it('is 409 when the site holds too little (or nothing), and then changes neither stock nor records', async () => {
      const s = await createSite(a.client, 'Short site');
      const shiftId = randomUUID();
      const none = await register({
        productId: flour,
        quantity: 1,
        stockSiteId: s,
        deductRawMaterials: true,
        shiftId,
      });
      expectErrorBody(none, 409);
      await addStock(a.client, s, [{ productId: flour, quantity: 3, price: 1 }]);
      const before = await stockOf(s, flour);
      const tooMuch = await register({
        productId: flour,
        quantity: 3.5,
        stockSiteId: s,
        deductRawMaterials: true,
        shiftId,
      });
      expectErrorBody(tooMuch, 409);
      expect(tooMuch.body.detail).toContain('available');
      const after = await stockOf(s, flour);
      expect(after.totalQuantity).toBe(3);
      expect(after.events).toEqual(before.events);
      expect((await a.client.get(`/waste-management/by-shift/${shiftId}`)).body).toEqual([]);
      // Reserved stock is not available for waste either.
      await a.client.graphql(
        `mutation($id: ID!) { updateStockInventory(id: $id, input: {reservations: [{quantity: 2, reservationSourceId: "SO-9", reservationType: ORDER}]}) { id } }`,
        { id: after.id },
      );
      expectErrorBody(
        await register({ productId: flour, quantity: 2, stockSiteId: s, deductRawMaterials: true }),
        409,
      );
      const ok = await register({ productId: flour, quantity: 1, stockSiteId: s, deductRawMaterials: true });
      expect(ok.status).toBe(201);
      expect(await stockOf(s, flour)).toMatchObject({
        totalQuantity: 2,
        availableQuantity: 0,
        status: 'OUT_OF_STOCK',
      });
    });

    it('parallel deductions never take more than there is', async () => {
      const s = await createSite(a.client, 'Race site');
      await addStock(a.client, s, [{ productId: flour, quantity: 10, price: 1 }]);
      const res = await Promise.all(
        Array.from({ length: 16 }, () =>
          register({ productId: flour, quantity: 1, stockSiteId: s, deductRawMaterials: true }),
        ),
      );
      const statuses = res.map((r) => r.status).sort();
      expect(statuses.filter((x) => x === 201)).toHaveLength(10);
      expect(statuses.filter((x) => x === 409)).toHaveLength(6);
      expect((await stockOf(s, flour)).totalQuantity).toBe(0);
    });

    it('GraphQL updates: turning deduction on deducts then; a deduction made is final (409)', async () => {
      const s = await createSite(a.client, 'Later site');
      await addStock(a.client, s, [{ productId: flour, quantity: 8, price: 1 }]);
      const w = (await register({ productId: flour, quantity: 3, stockSiteId: s })).body;
      expect((await stockOf(s, flour)).totalQuantity).toBe(8);
      const update = (input: object) =>
        a.client.graphql(
          `mutation($id: ID!, $input: UpdateWasteRecordInput!) { updateWasteRecord(id: $id, input: $input) { quantity deductRawMaterials reason events { type } } }`,
          { id: w.id, input },
        );
      const on = await update({ deductRawMaterials: true });
      expect(on.body.errors).toBeUndefined();
      expect(on.body.data.updateWasteRecord).toMatchObject({ deductRawMaterials: true });
      expect((await stockOf(s, flour)).totalQuantity).toBe(5);
      for (const input of [{ quantity: 1 }, { deductRawMaterials: false }, { stockSiteId: site }]) {
        const res = await update(input);
        expect(res.body.errors![0].extensions!.status).toBe(409);
      }
      const reason = await update({ reason: 'Burnt', quantity: 3 });
      expect(reason.body.data.updateWasteRecord).toMatchObject({ reason: 'Burnt', quantity: 3 });
      expect((await stockOf(s, flour)).totalQuantity).toBe(5);
    });
  });

  describe('lists and the family', () => {
    let t: TestTenant;
    let ids: string[];
    const shift = randomUUID();
    beforeAll(async () => {
      t = await server.tenant('Waste lists');
      const p = await createProduct(t.client, { name: 'Sugar' });
      ids = [];
      for (const [quantity, reason, shiftId] of [
        [1, 'Dropped', shift],
        [5, 'Expired', shift],
        [3, 'Dropped', null],
      ] as const) {
        ids.push((await register({ productId: p, quantity, reason, shiftId }, t.client)).body.id);
      }
    });

    it('GET by-shift/{shiftId} lists the records of a shift; an unknown or malformed shift gives []', async () => {
      const res = await t.client.get(`/waste-management/by-shift/${shift}`);
      expect(res.status).toBe(200);
      expect(res.body.map((w: any) => w.id)).toEqual([ids[0], ids[1]]);
      for (const w of res.body) expect(keys(w)).toEqual(sorted(FIELDS.waste));
      expect((await t.client.get(`/waste-management/by-shift/${MISSING}`)).body).toEqual([]);
      expect((await t.client.get(`/waste-management/by-shift/morning`)).body).toEqual([]);
    });

    it('GET find-by-list-of-ids and find answer the records asked, in order; ids are required', async () => {
      const res = await t.client.get(
        `/waste-management/find-by-list-of-ids?ids=${ids[2]},${MISSING}&ids=${ids[0]}&ids=junk`,
      );
      expect(res.status).toBe(200);
      expect(res.body.map((w: any) => w.id)).toEqual([ids[2], ids[0]]);
      expectErrorBody(await t.client.get('/waste-management/find-by-list-of-ids'), 400);
      const find = await t.client.get(`/waste-management/find?ids=${ids[1]},${ids[0]}`);
      expect(find.body.map((w: any) => w.id)).toEqual([ids[1], ids[0]]);
      expectErrorBody(await t.client.get('/waste-management/find'), 400);
      expect((await t.client.get('/waste-management/find-list')).body).toEqual([]);
      expect(
        (await t.client.get(`/waste-management/find-list?ids=${ids[2]}`)).body.map((w: any) => w.id),
      ).toEqual([ids[2]]);
    });

    it('GET find-all, find/{id} and page', async () => {
      expect((await t.client.get('/waste-management/find-all')).body.map((w: any) => w.id)).toEqual(ids);
      expect((await t.client.get(`/waste-management/find/${ids[1]}`)).body.reason).toBe('Expired');
      expectErrorBody(await t.client.get(`/waste-management/find/${MISSING}`), 404);
      expectErrorBody(await t.client.get(`/waste-management/find/not-an-id`), 404);
      const page = await t.client.get('/waste-management/page?pageSize=2&sortBy=quantity&direction=DESC');
      expect(keys(page.body)).toEqual(sorted(FIELDS.page));
      expect(page.body).toMatchObject({ totalElements: 3, totalPages: 2, size: 2 });
      expect(page.body.content.map((w: any) => w.quantity)).toEqual([5, 3]);
      const searched = await t.client.get('/waste-management/page?search=expired');
      expect(searched.body.content.map((w: any) => w.id)).toEqual([ids[1]]);
    });

    it('GET and POST dynamic-search, csv-export', async () => {
      const get = await t.client.get('/waste-management/dynamic-search?search=drop&sort=quantity,desc');
      expect(get.body.content.map((w: any) => w.quantity)).toEqual([3, 1]);
      const gte = await t.client.get('/waste-management/dynamic-search?filters=quantity:gte:3');
      expect(gte.body.totalElements).toBe(2);
      const post = await t.client.post('/waste-management/dynamic-search', {
        filters: { shiftId: shift, quantity: { lt: 5 } },
      });
      expect(post.body.content.map((w: any) => w.id)).toEqual([ids[0]]);
      expectErrorBody(
        await t.client.post('/waste-management/dynamic-search', { filters: { colour: 'red' } }),
        400,
      );
      const csv = await t.client.get('/waste-management/csv-export?sort=quantity,asc');
      const lines = csv.body.trim().split('\r\n');
      expect(lines).toHaveLength(4);
      expect(lines[0].split(',')).toEqual(
        expect.arrayContaining([
          'id',
          'productId',
          'quantity',
          'reason',
          'deductRawMaterials',
          'image.blobId',
        ]),
      );
      expect(lines[1]).toContain('Dropped');
    });

    it('reads need READ_WASTE and deletes DELETE_WASTE; delete-list deletes (204)', async () => {
      const inventory = await t.userWith(['READ_INVENTORY']);
      for (const path of [
        'find-all',
        `find?ids=${ids[0]}`,
        `find/${ids[0]}`,
        'page',
        'dynamic-search',
        'csv-export',
        `by-shift/${shift}`,
        `find-by-list-of-ids?ids=${ids[0]}`,
      ]) {
        expectErrorBody(await inventory.client.get(`/waste-management/${path}`), 403);
      }
      const reader = await t.userWith(['READ_WASTE']);
      expect((await reader.client.get('/waste-management/find-all')).body).toHaveLength(3);
      expectErrorBody(await reader.client.delete(`/waste-management/delete-list?ids=${ids[2]}`), 403);
      const extra = (
        await register(
          { productId: (await t.client.get('/waste-management/find-all')).body[0].productId, quantity: 1 },
          t.client,
        )
      ).body;
      expect((await t.client.delete(`/waste-management/delete-list?ids=${extra.id},${MISSING}`)).status).toBe(
        204,
      );
      expectErrorBody(await t.client.get(`/waste-management/find/${extra.id}`), 404);
      expectErrorBody(await t.client.delete('/waste-management/delete-list'), 400);
    });
  });

  describe('tenancy and data scope', () => {
    it("a second tenant can neither read, list, export nor delete the first tenant's waste, nor deduct its stock", async () => {
      const w = (await register({ productId: flour, quantity: 1, shiftId: randomUUID() })).body;
      const b = await server.tenant('Waste stranger');
      expectErrorBody(await b.client.get(`/waste-management/find/${w.id}`), 404);
      expect((await b.client.get(`/waste-management/find?ids=${w.id}`)).body).toEqual([]);
      expect((await b.client.get(`/waste-management/find-by-list-of-ids?ids=${w.id}`)).body).toEqual([]);
      expect((await b.client.get(`/waste-management/by-shift/${w.shiftId}`)).body).toEqual([]);
      expect((await b.client.get('/waste-management/find-all')).body).toEqual([]);
      expect((await b.client.get('/waste-management/dynamic-search')).body.totalElements).toBe(0);
      expect((await b.client.get('/waste-management/csv-export')).body.trim().split('\r\n')).toHaveLength(1);
      expect((await b.client.delete(`/waste-management/delete-list?ids=${w.id}`)).status).toBe(204);
      expect((await a.client.get(`/waste-management/find/${w.id}`)).status).toBe(200);
      expectErrorBody(await register({ productId: flour, quantity: 1 }, b.client), 404);
      const theirs = await createProduct(b.client, { name: 'B flour' });
      expectErrorBody(
        await register(
          { productId: theirs, quantity: 1, stockSiteId: site, deductRawMaterials: true },
          b.client,
        ),
        404,
      );
    });

    it('users limited to some subsidiaries see only their waste', async () => {
      const north = await createSubsidiary(a.client, 'W north');
      const south = await createSubsidiary(a.client, 'W south');
      const ns = await createSite(a.client, 'W N', north);
      const ss = await createSite(a.client, 'W S', south);
      const n = (await register({ productId: flour, quantity: 1, stockSiteId: ns })).body;
      const s = (await register({ productId: flour, quantity: 1, stockSiteId: ss })).body;
      const user = await a.userWith(['READ_WASTE', 'CREATE_WASTE'], { subsidiaryAccess: [north] });
      const ids = (await user.client.get('/waste-management/find-all')).body.map((w: any) => w.id);
      expect(ids).toContain(n.id);
      expect(ids).not.toContain(s.id);
      expectErrorBody(await user.client.get(`/waste-management/find/${s.id}`), 404);
      expectErrorBody(await register({ productId: flour, quantity: 1, stockSiteId: ss }, user.client), 404);
      expectErrorBody(
        await register({ productId: flour, quantity: 1, subsidiaryId: south }, user.client),
        403,
      );
      expect((await register({ productId: flour, quantity: 1, stockSiteId: ns }, user.client)).status).toBe(
        201,
      );
    });
  });
});
