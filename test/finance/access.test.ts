import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody, type Client } from '../support/http';
import {
  createCustomer,
  createOpportunity,
  createSubsidiary,
  createSupplier,
  dayFromToday,
  gql,
  gqlError,
  UNKNOWN_ID,
} from './helpers';

/** Permissions, subsidiary scope and tenant isolation of sales and AP invoices. */
describe('invoicing: permissions, scope and tenancy', () => {
  let server: TestServer;
  let a: TestTenant;
  let s1: string;
  let s2: string;
  let opportunity: string;
  let customer: string;
  let supplier: string;
  const inv: Record<string, any> = {};
  const ap: Record<string, any> = {};

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Owner');
    s1 = await createSubsidiary(a.client, 'Allowed');
    s2 = await createSubsidiary(a.client, 'Hidden');
    customer = await createCustomer(a.client, 'Scoped customer');
    opportunity = await createOpportunity(a.client, 'Scoped deal', customer);
    supplier = await createSupplier(a.client, 'Scoped supplier');
    const invoice = async (subsidiaryId: string | undefined, invoiceDate: string) =>
      (
        await a.client.post('/invoices', {
          subsidiaryId,
          invoiceDate,
          opportunityId: opportunity,
          rows: [{ quantity: 1, unitPrice: 100 }],
        })
      ).body;
    inv.one = await invoice(s1, '2026-04-01T00:00:00.000Z');
    inv.two = await invoice(s2, '2020-01-01T00:00:00.000Z');
    inv.none = await invoice(undefined, '2026-05-01T00:00:00.000Z');
    const apInvoice = async (subsidiaryId: string | undefined, price: number) =>
      (
        await a.client.post('/ap-invoices', {
          subsidiaryId,
          supplierId: supplier,
          invoiceDate: dayFromToday(-40),
          dueDate: dayFromToday(-10),
          rows: [{ quantity: 1, unitPrice: price, taxRate: 0 }],
          linkedPurchaseOrders: [{ purchaseOrderId: 'PO-SCOPE', allocatedAmount: 1 }],
        })
      ).body;
    ap.one = await apInvoice(s1, 10);
    ap.two = await apInvoice(s2, 1000);
    ap.none = await apInvoice(undefined, 5);
  });
  afterAll(() => server.close());

  /**
   * Every documented operation (plus find/{id}), with the permission it needs. Creates go to the
   * hidden subsidiary, so they do not change what the scope tests below count.
   */
  const operations = (): [string, string, string, unknown?][] => [
    ['POST', '/invoices', 'CREATE_INVOICES', { subsidiaryId: s2 }],
    ['GET', '/invoices/dynamic-search', 'READ_INVOICES'],
    ['POST', '/invoices/dynamic-search', 'READ_INVOICES', {}],
    ['GET', '/invoices/csv-export', 'READ_INVOICES'],
    ['DELETE', `/invoices/delete-list?ids=${UNKNOWN_ID}`, 'DELETE_INVOICES'],
    ['GET', `/invoices/find/${inv.none.id}`, 'READ_INVOICES'],
    ['GET', `/invoices/by-opportunity/${opportunity}`, 'READ_INVOICES'],
    ['GET', '/invoices/count-by-status', 'READ_INVOICES'],
    ['GET', '/invoices/date-range', 'READ_INVOICES'],
    ['POST', '/ap-invoices', 'CREATE_AP_INVOICES', { subsidiaryId: s2 }],
    ['GET', '/ap-invoices/dynamic-search', 'READ_AP_INVOICES'],
    ['POST', '/ap-invoices/dynamic-search', 'READ_AP_INVOICES', {}],
    ['GET', '/ap-invoices/csv-export', 'READ_AP_INVOICES'],
    ['DELETE', `/ap-invoices/delete-list?ids=${UNKNOWN_ID}`, 'DELETE_AP_INVOICES'],
    ['GET', `/ap-invoices/find/${ap.none.id}`, 'READ_AP_INVOICES'],
    ['GET', '/ap-invoices/aging-report', 'READ_AP_INVOICES'],
    ['GET', '/ap-invoices/by-purchase-order/PO-SCOPE', 'READ_AP_INVOICES'],
    ['GET', `/ap-invoices/by-supplier/${supplier}`, 'READ_AP_INVOICES'],
  ];

  it('each operation is 403 without its permission and succeeds with exactly it', async () => {
    const nobody = await a.userWith([], { hasFullAccess: true });
    for (const [method, path, permission, body] of operations()) {
      expectErrorBody(await nobody.client.request(method, path, body), 403);
      // The other resource's permissions do not help.
      const other = permission.endsWith('_AP_INVOICES')
        ? permission.replace('_AP_INVOICES', '_INVOICES')
        : permission.replace('_INVOICES', '_AP_INVOICES');
      const wrong = await a.userWith([other], { hasFullAccess: true });
      expectErrorBody(await wrong.client.request(method, path, body), 403);
      const right = await a.userWith([permission], { hasFullAccess: true });
      const res = await right.client.request(method, path, body);
      expect([200, 201, 204]).toContain(res.status);
    }
  });

  it('GraphQL changes need UPDATE_ and DELETE_ permissions', async () => {
    const reader = await a.userWith(['READ_INVOICES', 'READ_AP_INVOICES'], { hasFullAccess: true });
    for (const [query, id] of [
      ['mutation($id: ID!) { updateInvoice(id: $id, input: { note: "x" }) { id } }', inv.none.id],
      ['mutation($id: ID!) { deleteInvoice(id: $id) }', inv.none.id],
      ['mutation($id: ID!) { updateApInvoice(id: $id, input: { note: "x" }) { id } }', ap.none.id],
      ['mutation($id: ID!) { deleteApInvoice(id: $id) }', ap.none.id],
    ]) {
      const res = await reader.client.graphql(query, { id });
      expect(res.body.errors?.[0].extensions?.status).toBe(403);
    }
    const writer = await a.userWith(['UPDATE_INVOICES'], { hasFullAccess: true });
    const changed = await gql(
      writer.client,
      'mutation($id: ID!) { updateInvoice(id: $id, input: { note: "ok" }) { note } }',
      {
        id: inv.none.id,
      },
    );
    expect(changed.updateInvoice.note).toBe('ok');
  });

  describe('subsidiary scope', () => {
    let scoped: { client: Client };
    const PERMS = ['READ', 'CREATE', 'DELETE'].flatMap((v) => [`${v}_INVOICES`, `${v}_AP_INVOICES`]);

    beforeAll(async () => {
      scoped = await a.userWith(PERMS, { hasFullAccess: false, subsidiaryAccess: [s1] });
    });

    it('sales invoices of other subsidiaries behave as absent in every read', async () => {
      const c = scoped.client;
      const visible = [inv.one.id, inv.none.id].sort();
      const search = await c.get('/invoices/dynamic-search?size=100');
      expect(search.body.content.map((i: any) => i.id).sort()).toEqual(visible);
      const post = await c.post('/invoices/dynamic-search', { filters: { subsidiaryId: s2 } });
      expect(post.body.totalElements).toBe(0);
      expectErrorBody(await c.get(`/invoices/find/${inv.two.id}`), 404);
      const csv = await c.get('/invoices/csv-export');
      expect((csv.body as string).split('\r\n').filter(Boolean)).toHaveLength(3);
      const byOpp = await c.get(`/invoices/by-opportunity/${opportunity}`);
      expect(byOpp.body.map((i: any) => i.id).sort()).toEqual(visible);
      const counts = await c.get('/invoices/count-by-status');
      expect(Object.values(counts.body).reduce((s: number, n: any) => s + n, 0)).toBe(2);
      expect((await c.get('/invoices/date-range')).body).toEqual({
        min: '2026-04-01T00:00:00.000Z',
        max: '2026-05-01T00:00:00.000Z',
      });
      // The admin (full access) sees all three.
      expect((await a.client.get('/invoices/date-range')).body.min).toBe('2020-01-01T00:00:00.000Z');
    });

    it('sales invoices: creating in another subsidiary is 403, deleting there is skipped', async () => {
      const c = scoped.client;
      expectErrorBody(await c.post('/invoices', { subsidiaryId: s2 }), 403);
      const own = await c.post('/invoices', { subsidiaryId: s1 });
      expect(own.status).toBe(201);
      expect((await c.delete(`/invoices/delete-list?ids=${inv.two.id}`)).status).toBe(204);
      expect((await a.client.get(`/invoices/find/${inv.two.id}`)).status).toBe(200);
      expect((await c.delete(`/invoices/delete-list?ids=${own.body.id}`)).status).toBe(204);
      expectErrorBody(await a.client.get(`/invoices/find/${own.body.id}`), 404);
    });

    it('AP invoices of other subsidiaries are left out of lists, pages and the aging report', async () => {
      const c = scoped.client;
      const visible = [ap.one.id, ap.none.id].sort();
      const search = await c.get('/ap-invoices/dynamic-search');
      expect(search.body.content.map((i: any) => i.id).sort()).toEqual(visible);
      expectErrorBody(await c.get(`/ap-invoices/find/${ap.two.id}`), 404);
      const byPo = await c.get('/ap-invoices/by-purchase-order/PO-SCOPE');
      expect(byPo.body.map((i: any) => i.id).sort()).toEqual(visible);
      const bySupplier = await c.get(`/ap-invoices/by-supplier/${supplier}`);
      expect(bySupplier.body.totalElements).toBe(2);
      const aging = await c.get('/ap-invoices/aging-report');
      expect(aging.body.totalOutstanding).toBe(15);
      expect((await c.get(`/ap-invoices/aging-report?subsidiaryId=${s2}`)).body.totalOutstanding).toBe(0);
      expect((await a.client.get('/ap-invoices/aging-report')).body.totalOutstanding).toBe(1015);
      expectErrorBody(await c.post('/ap-invoices', { subsidiaryId: s2 }), 403);
      expect((await c.delete(`/ap-invoices/delete-list?ids=${ap.two.id}`)).status).toBe(204);
      expect((await a.client.get(`/ap-invoices/find/${ap.two.id}`)).status).toBe(200);
    });
  });

  describe('tenant isolation', () => {
    let b: TestTenant;
    beforeAll(async () => {
      b = await server.tenant('Intruder');
    });

    it("another tenant can neither read, list, count, export nor delete the first tenant's sales invoices", async () => {
      const c = b.client;
      expectErrorBody(await c.get(`/invoices/find/${inv.one.id}`), 404);
      expect((await c.get('/invoices/dynamic-search')).body.totalElements).toBe(0);
      expect(
        (await c.post('/invoices/dynamic-search', { search: [inv.one.invoiceNumber] })).body.totalElements,
      ).toBe(0);
      expect((await c.get('/invoices/csv-export')).body.split('\r\n').filter(Boolean)).toHaveLength(1);
      expect((await c.get(`/invoices/by-opportunity/${opportunity}`)).body).toEqual([]);
      expect(Object.values((await c.get('/invoices/count-by-status')).body)).toEqual([0, 0, 0, 0, 0, 0]);
      expect((await c.get('/invoices/date-range')).body).toEqual({ min: null, max: null });
      expect((await c.delete(`/invoices/delete-list?ids=${inv.one.id}`)).status).toBe(204);
      const gqlRes = await c.graphql(
        'mutation($id: ID!) { deleteInvoice(id: $id) deleteInvoices(ids: [$id]) }',
        { id: inv.one.id },
      );
      expect(gqlRes.body.data).toEqual({ deleteInvoice: false, deleteInvoices: 0 });
      const update = await gqlError(
        c,
        'mutation($id: ID!) { updateInvoice(id: $id, input: { note: "x" }) { id } }',
        {
          id: inv.one.id,
        },
      );
      expect(update.status).toBe(404);
      // References to the other tenant's records are unknown here.
      expectErrorBody(await c.post('/invoices', { clientId: customer }), 400);
      expectErrorBody(await c.post('/invoices', { opportunityId: opportunity }), 400);
      expectErrorBody(await c.post('/invoices', { subsidiaryId: s1 }), 400);
      // A's invoice is untouched, and B's numbering starts at its own 1.
      expect((await a.client.get(`/invoices/find/${inv.one.id}`)).body).toMatchObject({ id: inv.one.id });
      const mine = await c.post('/invoices', {
        invoiceDate: '2026-01-01T00:00:00.000Z',
        tenantId: a.tenantId,
      });
      expect(mine.body).toMatchObject({ invoiceNumber: '2026-00001', tenantId: b.tenantId });
    });

    it("another tenant can neither read, list, report on, export nor delete the first tenant's AP invoices", async () => {
      const c = b.client;
      expectErrorBody(await c.get(`/ap-invoices/find/${ap.one.id}`), 404);
      expect((await c.get('/ap-invoices/dynamic-search')).body.totalElements).toBe(0);
      expect((await c.post('/ap-invoices/dynamic-search', {})).body.totalElements).toBe(0);
      expect((await c.get('/ap-invoices/csv-export')).body.split('\r\n').filter(Boolean)).toHaveLength(1);
      expect((await c.get('/ap-invoices/by-purchase-order/PO-SCOPE')).body).toEqual([]);
      expect((await c.get(`/ap-invoices/by-supplier/${supplier}`)).body.totalElements).toBe(0);
      const aging = (await c.get('/ap-invoices/aging-report')).body;
      expect(aging.totalOutstanding).toBe(0);
      expect(aging.buckets.map((x: any) => x.count)).toEqual([0, 0, 0, 0, 0]);
      expect((await c.delete(`/ap-invoices/delete-list?ids=${ap.one.id},${ap.two.id}`)).status).toBe(204);
      expectErrorBody(await c.post('/ap-invoices', { supplierId: supplier }), 400);
      expect((await a.client.get(`/ap-invoices/find/${ap.one.id}`)).status).toBe(200);
      expect((await a.client.get(`/ap-invoices/find/${ap.two.id}`)).status).toBe(200);
    });
  });
});
