import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody } from '../support/http';
import {
  AP_INVOICE_KEYS,
  AP_PAYMENT_KEYS,
  AP_ROW_KEYS,
  createSubsidiary,
  createSupplier,
  DAY,
  dayFromToday,
  eventTypes,
  expectKeys,
  gql,
  gqlError,
  ISO,
  LINKED_PO_KEYS,
  PAGE_KEYS,
  UNKNOWN_ID,
  UUID,
} from './helpers';

const UPDATE = `mutation($id: ID!, $input: ApInvoiceInput!) {
  updateApInvoice(id: $id, input: $input) {
    id status paymentStatus paidAmount outstandingAmount paidDate totalAmount totalLinkedAmount
    unlinkedAmount purchaseOrderIds daysOverdue isOverdue supplierName supplierEmail
    supplier { id name } subsidiary { id name }
    payments { id amount date paymentMethod created createdBy }
    events { type description }
  }
}`;

const BUCKETS = ['current', '1-30', '31-60', '61-90', '90+'];

describe('AP invoices over REST', () => {
  let server: TestServer;
  let a: TestTenant;
  let supplier: string;
  let subsidiary: string;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Payables');
    supplier = await createSupplier(a.client, 'Paper Co', 'ap@paper.test');
    subsidiary = await createSubsidiary(a.client, 'Head office');
  });
  afterAll(() => server.close());

  it('POST /ap-invoices with the documented body: 201, Location, every field, amounts computed, not taken from the body', async () => {
    const res = await a.client.post('/ap-invoices', {
      currency: 'EUR',
      invoiceDate: dayFromToday(-1),
      dueDate: dayFromToday(29),
      rows: [
        { quantity: 4, unitPrice: 12.5 },
        { quantity: 1, unitPrice: 0.995, taxRate: 9, description: 'Stamps', glAccountId: 'GL-4000' },
      ],
      subsidiaryId: subsidiary,
      supplierId: supplier,
      invoiceNumber: 'PC-1001',
      // Computed or foreign fields a client might send: all ignored.
      subtotal: 1,
      totalAmount: 2,
      paidAmount: 3,
      paymentStatus: 'PAID',
      daysOverdue: 99,
      isOverdue: true,
      tenantId: UNKNOWN_ID,
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/api/v1/ap-invoices/find/${res.body.id}`);
    expectKeys(res.body, AP_INVOICE_KEYS);
    for (const row of res.body.rows) expectKeys(row, AP_ROW_KEYS);
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      tenantId: a.tenantId,
      created: expect.stringMatching(ISO),
      createdBy: a.adminEmail,
      updated: expect.stringMatching(ISO),
      updatedBy: a.adminEmail,
      events: [
        {
          id: expect.stringMatching(UUID),
          type: 'CREATE',
          date: expect.stringMatching(ISO),
          authorId: a.adminId,
          description: expect.any(String),
        },
      ],
      invoiceNumber: 'PC-1001',
      referenceNumber: null,
      currency: 'EUR',
      note: null,
      subsidiaryId: subsidiary,
      supplierId: supplier,
      supplierName: 'Paper Co',
      supplierEmail: 'ap@paper.test',
      invoiceDate: dayFromToday(-1),
      dueDate: dayFromToday(29),
      dueNotifiedAt: null,
      receivedDate: expect.stringMatching(ISO),
      paidDate: null,
      daysOverdue: 0,
      isOverdue: false,
      subtotal: 51,
      taxAmount: 10.59,
      totalAmount: 61.59,
      totalLinkedAmount: 0,
      unlinkedAmount: 61.59,
      outstandingAmount: 61.59,
      paidAmount: 0,
      status: 'DRAFT',
      paymentStatus: 'UNPAID',
      classificationMethod: 'MANUAL',
      classification: null,
      attachments: [],
      pdf: null,
      linkedPurchaseOrders: [],
      payments: [],
      rows: [
        {
          id: expect.stringMatching(UUID),
          description: null,
          glAccountId: null,
          productId: null,
          quantity: 4,
          unitPrice: 12.5,
          taxRate: 21,
          taxAmount: 10.5,
          total: 50,
          totalWithTax: 60.5,
        },
        {
          id: expect.stringMatching(UUID),
          description: 'Stamps',
          glAccountId: 'GL-4000',
          productId: null,
          quantity: 1,
          unitPrice: 0.995,
          taxRate: 9,
          taxAmount: 0.09,
          total: 1,
          totalWithTax: 1.09,
        },
      ],
    });
    const again = await a.client.get(`/ap-invoices/find/${res.body.id}`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
  });

  it('POST /ap-invoices with an empty body takes the defaults; a given supplier name wins over the supplier record', async () => {
    const before = Date.now();
    const res = await a.client.post('/ap-invoices', {});
    expect(res.status).toBe(201);
    expectKeys(res.body, AP_INVOICE_KEYS);
    expect(res.body).toMatchObject({
      currency: 'EUR',
      status: 'DRAFT',
      paymentStatus: 'UNPAID',
      classificationMethod: 'MANUAL',
      totalAmount: 0,
      outstandingAmount: 0,
      supplierName: null,
    });
    expect(Date.parse(res.body.invoiceDate)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(res.body.dueDate) - Date.parse(res.body.invoiceDate)).toBe(30 * DAY);
    expect(Date.parse(res.body.receivedDate)).toBeGreaterThanOrEqual(before - 1000);

    const named = await a.client.post('/ap-invoices', {
      supplierId: supplier,
      supplierName: 'Paper Company B.V.',
      classification: { category: 'Office', glAccountId: 'GL-4100' },
      classificationMethod: 'RULE',
    });
    expect(named.body).toMatchObject({
      supplierName: 'Paper Company B.V.',
      supplierEmail: 'ap@paper.test',
      classificationMethod: 'RULE',
      classification: {
        category: 'Office',
        costCenterId: null,
        glAccountId: 'GL-4100',
        projectId: null,
        subcategory: null,
      },
    });
  });

  it('POST /ap-invoices validates its input: 400 naming the field', async () => {
    for (const [body, field] of [
      [{ invoiceDate: '2026-05-10T00:00:00Z', dueDate: '2026-05-01T00:00:00Z' }, 'dueDate'],
      [{ supplierId: UNKNOWN_ID }, 'supplierId'],
      [{ supplierId: 'paper' }, 'supplierId'],
      [{ subsidiaryId: UNKNOWN_ID }, 'subsidiaryId'],
      [{ currency: 'E' }, 'currency'],
      [{ rows: [{ quantity: 1, unitPrice: 1, taxRate: -1 }] }, 'rows'],
      [{ rows: [{ quantity: 1, unitPrice: 'free' }] }, 'unitPrice'],
      [{ payments: [{ note: 'no amount' }] }, 'amount'],
      [{ payments: [{ amount: 1, paymentMethod: 'GOLD' }] }, 'paymentMethod'],
      [{ linkedPurchaseOrders: [{ allocatedAmount: 1 }] }, 'purchaseOrderId'],
      [
        { linkedPurchaseOrders: [{ purchaseOrderId: 'PO-1' }, { purchaseOrderId: 'PO-1' }] },
        'linkedPurchaseOrders[1].purchaseOrderId',
      ],
      [{ status: 'PAID' }, 'status'],
      [{ classificationMethod: 'GUESS' }, 'classificationMethod'],
      [{ supplierEmail: 'not mail' }, 'supplierEmail'],
    ] as const) {
      const res = await a.client.post('/ap-invoices', body);
      expectErrorBody(res, 400);
      expect(res.body.detail).toContain(field);
    }
  });

  it('payments and purchase-order links drive paidAmount, outstandingAmount, paymentStatus, paidDate and the linked amounts', async () => {
    const inv = (
      await a.client.post('/ap-invoices', {
        invoiceDate: dayFromToday(-45),
        dueDate: dayFromToday(-15),
        rows: [{ quantity: 10, unitPrice: 10 }],
        linkedPurchaseOrders: [
          { purchaseOrderId: 'PO-77', allocatedAmount: 80, costType: 'PRODUCT', purchaseOrderNumber: 'P77' },
        ],
      })
    ).body;
    expect(inv).toMatchObject({
      totalAmount: 121,
      totalLinkedAmount: 80,
      unlinkedAmount: 41,
      daysOverdue: 15,
      isOverdue: true,
    });
    expectKeys(inv.linkedPurchaseOrders[0], LINKED_PO_KEYS);
    expect(inv.linkedPurchaseOrders[0]).toEqual({
      allocatedAmount: 80,
      costType: 'PRODUCT',
      purchaseOrderId: 'PO-77',
      purchaseOrderNumber: 'P77',
      purchaseOrderStatus: null,
      purchaseOrderTotal: null,
      stockAdjustmentApplied: false,
      created: expect.stringMatching(ISO),
      createdBy: a.adminEmail,
    });

    const partly = (
      await gql(a.client, UPDATE, {
        id: inv.id,
        input: {
          payments: [
            { id: 'p1', amount: 21, date: '2026-01-02T00:00:00.000Z', paymentMethod: 'BANK_TRANSFER' },
          ],
          linkedPurchaseOrders: [
            {
              purchaseOrderId: 'PO-77',
              allocatedAmount: 80,
              costType: 'PRODUCT',
              purchaseOrderNumber: 'P77',
            },
            { purchaseOrderId: 'PO-78', allocatedAmount: 41 },
          ],
        },
      })
    ).updateApInvoice;
    expect(partly).toMatchObject({
      paymentStatus: 'PARTIALLY_PAID',
      paidAmount: 21,
      outstandingAmount: 100,
      paidDate: null,
      totalLinkedAmount: 121,
      unlinkedAmount: 0,
      purchaseOrderIds: ['PO-77', 'PO-78'],
      daysOverdue: 15,
      isOverdue: true,
    });
    expect(eventTypes(partly)).toEqual(['CREATE', 'UPDATE']);

    const paid = (
      await gql(a.client, UPDATE, {
        id: inv.id,
        input: {
          payments: [
            { id: 'p1', amount: 21, date: '2026-01-02T00:00:00.000Z', paymentMethod: 'BANK_TRANSFER' },
            { amount: 100, date: '2026-01-09T00:00:00.000Z', reference: 'final' },
          ],
        },
      })
    ).updateApInvoice;
    expect(paid).toMatchObject({
      paymentStatus: 'PAID',
      paidAmount: 121,
      outstandingAmount: 0,
      paidDate: '2026-01-09T00:00:00.000Z',
      daysOverdue: 0,
      isOverdue: false,
    });
    expect(paid.payments[0]).toEqual(partly.payments[0]);
    const read = (await a.client.get(`/ap-invoices/find/${inv.id}`)).body;
    for (const p of read.payments) expectKeys(p, AP_PAYMENT_KEYS);
    expect(read.payments[1]).toMatchObject({
      amount: 100,
      reference: 'final',
      createdBy: a.adminEmail,
      id: expect.stringMatching(UUID),
    });
  });

  it('status moves: DRAFT -> APPROVED -> POSTED with STATUS_CHANGE events; POSTED does not go back, CANCELLED is final', async () => {
    const inv = (await a.client.post('/ap-invoices', { rows: [{ quantity: 1, unitPrice: 5 }] })).body;
    const skip = await gqlError(a.client, UPDATE, { id: inv.id, input: { status: 'POSTED' } });
    expect(skip.status).toBe(400);
    expect(skip.message).toContain('APPROVED');
    await gql(a.client, UPDATE, { id: inv.id, input: { status: 'APPROVED' } });
    const posted = (await gql(a.client, UPDATE, { id: inv.id, input: { status: 'POSTED' } })).updateApInvoice;
    expect(posted.events.slice(1)).toEqual([
      { type: 'STATUS_CHANGE', description: 'DRAFT -> APPROVED' },
      { type: 'STATUS_CHANGE', description: 'APPROVED -> POSTED' },
    ]);
    const unchanged = (await gql(a.client, UPDATE, { id: inv.id, input: { status: null, note: 'booked' } }))
      .updateApInvoice;
    expect(unchanged.status).toBe('POSTED');
    const back = await gqlError(a.client, UPDATE, { id: inv.id, input: { status: 'DRAFT' } });
    expect(back.status).toBe(400);
    await gql(a.client, UPDATE, { id: inv.id, input: { status: 'CANCELLED' } });
    const revived = await gqlError(a.client, UPDATE, { id: inv.id, input: { status: 'APPROVED' } });
    expect(revived.status).toBe(400);
    expect(revived.message).toContain('final');
  });

  it("a supplier's invoice number is registered once (409); other suppliers may use the same number", async () => {
    const other = await createSupplier(a.client, 'Ink Inc');
    expect(
      (await a.client.post('/ap-invoices', { supplierId: supplier, invoiceNumber: 'DUP-1' })).status,
    ).toBe(201);
    expectErrorBody(
      await a.client.post('/ap-invoices', { supplierId: supplier, invoiceNumber: 'DUP-1' }),
      409,
    );
    expect((await a.client.post('/ap-invoices', { supplierId: other, invoiceNumber: 'DUP-1' })).status).toBe(
      201,
    );
  });

  it('GET /ap-invoices/by-purchase-order/{purchaseOrderId} lists the invoices linked to that order', async () => {
    const first = (
      await a.client.post('/ap-invoices', {
        invoiceDate: '2026-02-01T00:00:00.000Z',
        linkedPurchaseOrders: [{ purchaseOrderId: 'PO/2026-5', allocatedAmount: 10 }],
      })
    ).body;
    const second = (
      await a.client.post('/ap-invoices', {
        invoiceDate: '2026-01-01T00:00:00.000Z',
        linkedPurchaseOrders: [
          { purchaseOrderId: 'PO-6', allocatedAmount: 1 },
          { purchaseOrderId: 'PO/2026-5', allocatedAmount: 5 },
        ],
      })
    ).body;
    const res = await a.client.get(`/ap-invoices/by-purchase-order/${encodeURIComponent('PO/2026-5')}`);
    expect(res.status).toBe(200);
    expect(res.body.map((i: any) => i.id)).toEqual([second.id, first.id]);
    for (const i of res.body) expectKeys(i, AP_INVOICE_KEYS);
    expect((await a.client.get('/ap-invoices/by-purchase-order/PO-6')).body.map((i: any) => i.id)).toEqual([
      second.id,
    ]);
    await gql(a.client, UPDATE, {
      id: second.id,
      input: { linkedPurchaseOrders: [{ purchaseOrderId: 'PO-6' }] },
    });
    expect(
      (await a.client.get(`/ap-invoices/by-purchase-order/${encodeURIComponent('PO/2026-5')}`)).body.map(
        (i: any) => i.id,
      ),
    ).toEqual([first.id]);
    expect((await a.client.get('/ap-invoices/by-purchase-order/nothing')).body).toEqual([]);
  });

  it("GET /ap-invoices/by-supplier/{supplierId} pages and sorts one supplier's invoices", async () => {
    const t = await server.tenant('BySupplier');
    const s1 = await createSupplier(t.client, 'One');
    const s2 = await createSupplier(t.client, 'Two');
    for (const [n, s] of [
      [3, s1],
      [1, s1],
      [2, s1],
      [9, s2],
    ] as const) {
      await t.client.post('/ap-invoices', {
        supplierId: s,
        invoiceNumber: `N-${n}`,
        rows: [{ quantity: n, unitPrice: 10 }],
      });
    }
    const res = await t.client.get(`/ap-invoices/by-supplier/${s1}?page=0&size=2&sort=totalAmount,desc`);
    expect(res.status).toBe(200);
    expectKeys(res.body, PAGE_KEYS);
    expect(res.body.content.map((i: any) => i.invoiceNumber)).toEqual(['N-3', 'N-2']);
    for (const i of res.body.content) expectKeys(i, AP_INVOICE_KEYS);
    expect(res.body).toMatchObject({
      empty: false,
      first: true,
      last: false,
      number: 0,
      numberOfElements: 2,
      size: 2,
      totalElements: 3,
      totalPages: 2,
      sort: { empty: false, sorted: true, unsorted: false },
      pageable: { offset: 0, pageNumber: 0, pageSize: 2, paged: true, unpaged: false },
    });
    const next = await t.client.get(`/ap-invoices/by-supplier/${s1}?page=1&size=2&sort=totalAmount,desc`);
    expect(next.body.content.map((i: any) => i.invoiceNumber)).toEqual(['N-1']);
    const asc = await t.client.get(`/ap-invoices/by-supplier/${s1}?sort=invoiceNumber,asc`);
    expect(asc.body.content.map((i: any) => i.invoiceNumber)).toEqual(['N-1', 'N-2', 'N-3']);
    expect(asc.body).toMatchObject({ size: 20, number: 0 });
    expect((await t.client.get(`/ap-invoices/by-supplier/${UNKNOWN_ID}`)).body.totalElements).toBe(0);
    const malformed = await t.client.get('/ap-invoices/by-supplier/not-an-id');
    expect(malformed.status).toBe(200);
    expect(malformed.body).toMatchObject({ content: [], totalElements: 0, empty: true });
    for (const bad of [
      'sort=nope,asc',
      'sort=totalAmount,sideways',
      'size=0',
      'size=1001',
      'page=-1',
      'page=x',
    ]) {
      expectErrorBody(await t.client.get(`/ap-invoices/by-supplier/${s1}?${bad}`), 400);
    }
  });

  describe('GET /ap-invoices/aging-report', () => {
    let t: TestTenant;
    let north: string;
    let south: string;

    beforeAll(async () => {
      t = await server.tenant('Aging');
      north = await createSubsidiary(t.client, 'North');
      south = await createSubsidiary(t.client, 'South');
      // [days past due, amount without tax (no tax), extra]
      const invoices: [number, number, object][] = [
        [-10, 100, {}], // not yet due: current
        [0, 50, {}], // due today: current
        [1, 10, { subsidiaryId: north }], // 1-30
        [30, 20, {}], // 1-30
        [31, 30, { subsidiaryId: south }], // 31-60
        [60, 40, {}], // 31-60
        [61, 60, {}], // 61-90
        [90, 70, { subsidiaryId: north }], // 61-90
        [91, 80, {}], // 90+
        [400, 90, {}], // 90+
        [45, 200, { payments: [{ amount: 150 }] }], // 31-60, 50 outstanding
        [45, 999, { payments: [{ amount: 999 }] }], // paid: left out
        [45, 888, { status: 'CANCELLED' }], // cancelled: left out
        [45, 777, { currency: 'USD' }], // other currency: left out of EUR
      ];
      for (const [days, price, extra] of invoices) {
        const res = await t.client.post('/ap-invoices', {
          invoiceDate: dayFromToday(-days - 30),
          dueDate: dayFromToday(-days),
          rows: [{ quantity: 1, unitPrice: price, taxRate: 0 }],
          ...extra,
        });
        expect(res.status).toBe(201);
        const settled = 'status' in extra || price === 999;
        expect(res.body.daysOverdue).toBe(settled ? 0 : Math.max(0, days));
        expect(res.body.isOverdue).toBe(!settled && days > 0);
      }
    });

    const report = async (query = '') => {
      const res = await t.client.get(`/ap-invoices/aging-report${query}`);
      expect(res.status).toBe(200);
      expectKeys(res.body, ['buckets', 'currency', 'generatedAt', 'totalOutstanding']);
      expect(res.body.buckets.map((b: any) => b.bucket)).toEqual(BUCKETS);
      for (const b of res.body.buckets) expectKeys(b, ['bucket', 'count', 'totalAmount']);
      const sum = res.body.buckets.reduce((s: number, b: any) => s + Math.round(b.totalAmount * 100), 0);
      expect(Math.round(res.body.totalOutstanding * 100)).toBe(sum);
      expect(res.body.generatedAt).toMatch(ISO);
      return res.body;
    };
    const counts = (r: any) =>
      Object.fromEntries(r.buckets.map((b: any) => [b.bucket, [b.count, b.totalAmount]]));

    it('counts unpaid and partly paid, live invoices of the currency (default EUR) by days past due; buckets add up', async () => {
      const eur = await report();
      expect(eur.currency).toBe('EUR');
      expect(counts(eur)).toEqual({
        current: [2, 150],
        '1-30': [2, 30],
        '31-60': [3, 120],
        '61-90': [2, 130],
        '90+': [2, 170],
      });
      expect(eur.totalOutstanding).toBe(600);
      expect(await report('?currency=EUR')).toMatchObject({ totalOutstanding: 600 });
    });

    it('filters by currency and subsidiary; every bucket is present when empty', async () => {
      const usd = await report('?currency=usd');
      expect(usd.currency).toBe('USD');
      expect(counts(usd)['31-60']).toEqual([1, 777]);
      expect(usd.totalOutstanding).toBe(777);
      const northOnly = await report(`?subsidiaryId=${north}`);
      expect(counts(northOnly)).toEqual({
        current: [0, 0],
        '1-30': [1, 10],
        '31-60': [0, 0],
        '61-90': [1, 70],
        '90+': [0, 0],
      });
      expect(northOnly.totalOutstanding).toBe(80);
      expect((await report(`?subsidiaryId=${south}`)).totalOutstanding).toBe(30);
      const none = await report('?currency=JPY');
      expect(none.buckets.every((b: any) => b.count === 0 && b.totalAmount === 0)).toBe(true);
      expect(none.totalOutstanding).toBe(0);
      expectErrorBody(await t.client.get('/ap-invoices/aging-report?currency=EURO'), 400);
      expectErrorBody(await t.client.get('/ap-invoices/aging-report?subsidiaryId=north'), 400);
    });
  });

  describe('the family operations', () => {
    let t: TestTenant;
    let x: any;
    let y: any;

    beforeAll(async () => {
      t = await server.tenant('ApFamily');
      const s = await createSupplier(t.client, 'Searchable Supplies');
      x = (
        await t.client.post('/ap-invoices', {
          supplierId: s,
          invoiceNumber: 'SS-1',
          rows: [{ quantity: 1, unitPrice: 100 }],
          dueDate: dayFromToday(-5),
          invoiceDate: dayFromToday(-35),
        })
      ).body;
      y = (
        await t.client.post('/ap-invoices', {
          invoiceNumber: 'OTHER-2',
          referenceNumber: 'REF-9',
          currency: 'GBP',
          rows: [{ quantity: 5, unitPrice: 100 }],
          linkedPurchaseOrders: [{ purchaseOrderId: 'PO-1', allocatedAmount: 1 }],
        })
      ).body;
    });
    const ids = (res: any) => res.body.content.map((i: any) => i.id);

    it('GET and POST /ap-invoices/dynamic-search filter, search and sort', async () => {
      const all = await t.client.get('/ap-invoices/dynamic-search');
      expect(all.status).toBe(200);
      expectKeys(all.body, PAGE_KEYS);
      expect(all.body.totalElements).toBe(2);
      for (const i of all.body.content) expectKeys(i, AP_INVOICE_KEYS);
      expect(ids(await t.client.get('/ap-invoices/dynamic-search?search=searchable'))).toEqual([x.id]);
      expect(ids(await t.client.get('/ap-invoices/dynamic-search?search=ref-9'))).toEqual([y.id]);
      expect(ids(await t.client.get('/ap-invoices/dynamic-search?filters=currency:eq:GBP'))).toEqual([y.id]);
      expect(ids(await t.client.get('/ap-invoices/dynamic-search?filters=outstandingAmount:gt:200'))).toEqual(
        [y.id],
      );
      expect(ids(await t.client.get('/ap-invoices/dynamic-search?filters=purchaseOrderIds:eq:PO-1'))).toEqual(
        [y.id],
      );
      expect(
        ids(
          await t.client.get(
            '/ap-invoices/dynamic-search?filters=paymentStatus:eq:UNPAID&sort=totalAmount,desc',
          ),
        ),
      ).toEqual([y.id, x.id]);
      const body = await t.client.post('/ap-invoices/dynamic-search', {
        filters: { dueDate: { lt: dayFromToday(0) } },
        sort: [{ field: 'invoiceNumber', ascending: true }],
      });
      expect(ids(body)).toEqual([x.id]);
      // Derived values filter in SQL as the fields answer them: x is five days past due.
      expect(ids(await t.client.get('/ap-invoices/dynamic-search?filters=daysOverdue:gt:1'))).toEqual([x.id]);
      expect(
        ids(await t.client.post('/ap-invoices/dynamic-search', { filters: { isOverdue: false } })),
      ).toEqual([y.id]);
      expectErrorBody(await t.client.get('/ap-invoices/dynamic-search?filters=isOverdue:gt:1'), 400);
      expectErrorBody(
        await t.client.post('/ap-invoices/dynamic-search', { filters: { status: 'LOST' } }),
        400,
      );
    });

    it('GET /ap-invoices/csv-export and DELETE /ap-invoices/delete-list', async () => {
      const csv = await t.client.get('/ap-invoices/csv-export?sort=invoiceNumber,asc');
      expect(csv.status).toBe(200);
      const lines = (csv.body as string).split('\r\n').filter(Boolean);
      expect(lines).toHaveLength(3);
      const header = lines[0].split(',');
      for (const f of [
        'invoiceNumber',
        'supplierName',
        'outstandingAmount',
        'classification.category',
        'payments',
      ])
        expect(header).toContain(f);
      expect(header).not.toContain('purchaseOrderIds');
      expect(lines[1]).toContain('OTHER-2');

      expect((await t.client.delete('/ap-invoices/delete-list')).status).toBe(204);
      expect((await t.client.get('/ap-invoices/dynamic-search')).body.totalElements).toBe(2);
      const res = await t.client.delete(`/ap-invoices/delete-list?ids=${x.id}&ids=${UNKNOWN_ID}`);
      expect(res.status).toBe(204);
      expectErrorBody(await t.client.get(`/ap-invoices/find/${x.id}`), 404);
      expect(ids(await t.client.get('/ap-invoices/dynamic-search'))).toEqual([y.id]);
    });
  });

  it('GraphQL adds the supplier and subsidiary records to an AP invoice', async () => {
    const inv = (await a.client.post('/ap-invoices', { supplierId: supplier, subsidiaryId: subsidiary }))
      .body;
    const data = await gql(
      a.client,
      `query($id: ID!) { apInvoice(id: $id) { supplier { name } subsidiary { name } } }`,
      {
        id: inv.id,
      },
    );
    expect(data.apInvoice).toEqual({ supplier: { name: 'Paper Co' }, subsidiary: { name: 'Head office' } });
  });
});
