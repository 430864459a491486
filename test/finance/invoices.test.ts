import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody } from '../support/http';
import {
  createCustomer,
  createOpportunity,
  eventTypes,
  expectKeys,
  gql,
  gqlError,
  INVOICE_KEYS,
  INVOICE_ROW_KEYS,
  INVOICE_TRANSACTION_KEYS,
  ISO,
  PAGE_KEYS,
  UNKNOWN_ID,
  UUID,
} from './helpers';

const UPDATE = `mutation($id: ID!, $input: InvoiceInput!) {
  updateInvoice(id: $id, input: $input) {
    id status paid paidExcludingTax datePaid total totalWithTax
    transactions { id amount date paymentMethod tenantId created createdBy updated updatedBy }
    events { type description authorId }
  }
}`;

describe('sales invoices over REST', () => {
  let server: TestServer;
  let a: TestTenant;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Invoices');
  });
  afterAll(() => server.close());

  it('POST /invoices with the documented body: 201, Location, every field, totals computed, not taken from the body', async () => {
    const res = await a.client.post('/invoices', {
      currency: 'EUR',
      invoiceDate: '2026-03-10T10:00:00.000Z',
      paymentTermDays: 14,
      rows: [
        {
          id: 'row-1',
          quantity: 3,
          unitPrice: 19.99,
          quantityType: 'AMOUNT',
          type: 'ITEM',
          taxAmount: 1,
          total: 2,
          totalWithTax: 3,
        },
        { quantity: 2.5, unitPrice: 80, quantityType: 'HOURS', type: 'ITEM', taxRate: 9, total: 0 },
        { type: 'TEXT', description: 'Thank you', total: 1000 },
      ],
      // Computed or foreign fields a client might send: all ignored.
      total: 1,
      totalWithTax: 1,
      totalTax: 1,
      paid: 500,
      invoiceNumber: 'HACK-1',
      dueDate: '2030-01-01T00:00:00.000Z',
      tenantId: UNKNOWN_ID,
      createdBy: 'mallory',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/api/v1/invoices/find/${res.body.id}`);
    expectKeys(res.body, INVOICE_KEYS);
    for (const row of res.body.rows) expectKeys(row, INVOICE_ROW_KEYS);
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
      invoiceNumber: '2026-00001',
      clientId: null,
      contactEmail: null,
      currency: 'EUR',
      mailBody: null,
      milestoneId: null,
      note: null,
      opportunityId: null,
      paymentReference: null,
      reminderBody: null,
      salesOrderId: null,
      subsidiaryId: null,
      creditedInvoiceId: null,
      invoiceDate: '2026-03-10T10:00:00.000Z',
      dueDate: '2026-03-24T10:00:00.000Z',
      datePaid: null,
      overdueNotifiedAt: null,
      paymentTermDays: 14,
      paid: 0,
      paidExcludingTax: 0,
      total: 290.56,
      totalExcludingTax: 259.97,
      totalTax: 30.59,
      totalWithTax: 290.56,
      status: 'DRAFT',
      type: 'MANUAL',
      sentMails: [],
      attachments: [],
      // Made by the service after the create commits (test/files/invoice-pdf.test.ts waits for it).
      pdf: null,
      recurringAgreement: null,
      reminders: [],
      rows: [
        {
          id: 'row-1',
          description: null,
          productId: null,
          quantity: 3,
          quantityType: 'AMOUNT',
          unitPrice: 19.99,
          taxRate: 21,
          taxAmount: 12.59,
          total: 59.97,
          totalWithTax: 72.56,
          type: 'ITEM',
        },
        {
          id: expect.stringMatching(UUID),
          description: null,
          productId: null,
          quantity: 2.5,
          quantityType: 'HOURS',
          unitPrice: 80,
          taxRate: 9,
          taxAmount: 18,
          total: 200,
          totalWithTax: 218,
          type: 'ITEM',
        },
        {
          id: expect.stringMatching(UUID),
          description: 'Thank you',
          productId: null,
          quantity: null,
          quantityType: null,
          unitPrice: null,
          taxRate: null,
          taxAmount: 0,
          total: 0,
          totalWithTax: 0,
          type: 'TEXT',
        },
      ],
      transactions: [],
    });
    const again = await a.client.get(`/invoices/find/${res.body.id}`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
  });

  it('POST /invoices with an empty body takes the defaults: EUR, today, 30 days, DRAFT, MANUAL, no rows', async () => {
    const before = Date.now();
    const res = await a.client.post('/invoices', {});
    expect(res.status).toBe(201);
    expectKeys(res.body, INVOICE_KEYS);
    expect(res.body).toMatchObject({
      currency: 'EUR',
      paymentTermDays: 30,
      status: 'DRAFT',
      type: 'MANUAL',
      rows: [],
      total: 0,
      totalExcludingTax: 0,
      totalTax: 0,
      totalWithTax: 0,
    });
    const invoiceDate = Date.parse(res.body.invoiceDate);
    expect(invoiceDate).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(res.body.dueDate) - invoiceDate).toBe(30 * 24 * 60 * 60 * 1000);
    expect(res.body.invoiceNumber).toMatch(new RegExp(`^${new Date(invoiceDate).getUTCFullYear()}-\\d{5}$`));
  });

  it('rounds each amount to cents half away from zero, exactly (no binary floating-point drift)', async () => {
    const res = await a.client.post('/invoices', {
      invoiceDate: '2026-05-01T00:00:00.000Z',
      rows: [
        { quantity: 1, unitPrice: 1.005 }, // 1.01 (a double holds 1.00499...)
        { quantity: 3, unitPrice: 1.005 }, // 3.015 -> 3.02; tax 0.6342 -> 0.63
        { quantity: 1, unitPrice: 0.5 }, // tax 0.105 -> 0.11
        { quantity: -1, unitPrice: 0.125, taxRate: 0 }, // -0.125 -> -0.13
        { quantity: 0.1, unitPrice: 0.2, taxRate: 50 }, // 0.02; tax 0.01
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.rows.map((r: any) => [r.total, r.taxAmount, r.totalWithTax])).toEqual([
      [1.01, 0.21, 1.22],
      [3.02, 0.63, 3.65],
      [0.5, 0.11, 0.61],
      [-0.13, 0, -0.13],
      [0.02, 0.01, 0.03],
    ]);
    expect(res.body).toMatchObject({
      totalExcludingTax: 4.42,
      totalTax: 0.96,
      totalWithTax: 5.38,
      total: 5.38,
    });
  });

  it('row kinds: DISCOUNT reduces, PERCENTAGE is a share of the unit price, a CREDIT_NOTE mirrors the amounts', async () => {
    const invoice = await a.client.post('/invoices', {
      rows: [
        { quantity: 30, quantityType: 'PERCENTAGE', unitPrice: 1000, taxRate: 21 },
        { type: 'DISCOUNT', quantity: 1, unitPrice: 50, taxRate: 21 },
        { type: 'DISCOUNT', quantity: 1, unitPrice: -10, taxRate: 21 },
      ],
    });
    expect(invoice.status).toBe(201);
    expect(invoice.body.rows.map((r: any) => [r.total, r.taxAmount, r.totalWithTax])).toEqual([
      [300, 63, 363],
      [-50, -10.5, -60.5],
      [-10, -2.1, -12.1],
    ]);
    expect(invoice.body).toMatchObject({ totalExcludingTax: 240, totalTax: 50.4, totalWithTax: 290.4 });

    const credit = await a.client.post('/invoices', {
      type: 'CREDIT_NOTE',
      rows: [
        { quantity: 2, unitPrice: 100 },
        { type: 'DISCOUNT', quantity: 1, unitPrice: 20, taxRate: 0 },
      ],
    });
    expect(credit.status).toBe(201);
    expect(credit.body).toMatchObject({
      type: 'CREDIT_NOTE',
      totalExcludingTax: -180,
      totalTax: -42,
      totalWithTax: -222,
      total: -222,
    });
  });

  it('POST /invoices validates its input: 400 naming the field, nothing stored', async () => {
    const customer = await createCustomer(a.client, 'Valid customer');
    const before = (await a.client.get('/invoices/dynamic-search?size=1')).body.totalElements;
    for (const [body, field] of [
      [{ currency: 'EURO' }, 'currency'],
      [{ paymentTermDays: -1 }, 'paymentTermDays'],
      [{ paymentTermDays: 1.5 }, 'paymentTermDays'],
      [{ invoiceDate: 'yesterday' }, 'invoiceDate'],
      [{ rows: [{ quantity: 1, unitPrice: 1, taxRate: 150 }] }, 'rows'],
      [{ rows: [{ quantity: 'two', unitPrice: 1 }] }, 'quantity'],
      [{ rows: [{ quantity: 1, quantityType: 'BOXES' }] }, 'quantityType'],
      [{ rows: [{ type: 'GIFT' }] }, 'type'],
      [{ rows: [{ id: 'x' }, { id: 'x' }] }, 'rows[1].id'],
      [{ rows: [{ quantity: 1e12, unitPrice: 1e12 }] }, 'rows'],
      [{ clientId: UNKNOWN_ID }, 'clientId'],
      [{ clientId: 'not-an-id' }, 'clientId'],
      [{ opportunityId: UNKNOWN_ID }, 'opportunityId'],
      [{ subsidiaryId: UNKNOWN_ID }, 'subsidiaryId'],
      [{ contactEmail: 'nope' }, 'contactEmail'],
      [{ status: 'PAID' }, 'status'],
      [{ status: 'PARTIALLY_PAID' }, 'status'],
      [{ status: 'LOST' }, 'status'],
      [{ type: 'RECURRING' }, 'recurringAgreement'],
      [{ type: 'RECURRING', recurringAgreement: { intervalDays: 0 } }, 'recurringAgreement'],
      [{ transactions: [{ date: '2026-01-01T00:00:00Z' }] }, 'amount'],
      [{ clientId: customer, rows: 'many' }, 'rows'],
    ] as const) {
      const res = await a.client.post('/invoices', body);
      expectErrorBody(res, 400);
      expect(res.body.detail).toContain(field);
    }
    expectErrorBody(
      await a.client.request('POST', '/invoices', '{"rows": [', { 'content-type': 'application/json' }),
      400,
    );
    expect((await a.client.get('/invoices/dynamic-search?size=1')).body.totalElements).toBe(before);
  });

  it('a recurring invoice keeps its agreement; the next date defaults to invoiceDate plus the interval', async () => {
    const res = await a.client.post('/invoices', {
      type: 'RECURRING',
      invoiceDate: '2026-01-31T09:00:00.000Z',
      recurringAgreement: { intervalMonths: 1, autoSend: true },
    });
    expect(res.status).toBe(201);
    expect(res.body.recurringAgreement).toEqual({
      autoSend: true,
      endDate: null,
      nextInvoiceDate: '2026-02-28T09:00:00.000Z',
      intervalDays: null,
      intervalMonths: 1,
    });
  });

  it('100 parallel POST /invoices get 100 distinct, consecutive numbers', async () => {
    const t = await server.tenant('Numbering');
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        t.client.post('/invoices', {
          invoiceDate: '2026-06-01T00:00:00.000Z',
          rows: [{ quantity: 1, unitPrice: i + 1 }],
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(100).fill(201));
    const numbers = results.map((r) => r.body.invoiceNumber as string).sort();
    expect(numbers).toEqual(Array.from({ length: 100 }, (_, i) => `2026-${String(i + 1).padStart(5, '0')}`));
    // The year is the invoice date's; the sequence continues across years.
    const older = await t.client.post('/invoices', { invoiceDate: '2025-12-31T23:00:00.000Z' });
    expect(older.body.invoiceNumber).toBe('2025-00101');
    const search = await t.client.get('/invoices/dynamic-search?size=1000');
    expect(search.body.totalElements).toBe(101);
  });

  it('transactions set paid, paidExcludingTax, datePaid and the payment status; clients cannot set those', async () => {
    const created = (
      await a.client.post('/invoices', {
        // Not yet due: past its due date, money outstanding would make it OVERDUE (invoice-schedules.test.ts).
        invoiceDate: new Date().toISOString(),
        rows: [{ quantity: 1, unitPrice: 100 }],
      })
    ).body;
    expect(created.total).toBe(121);

    const sent = (await gql(a.client, UPDATE, { id: created.id, input: { status: 'SENT' } })).updateInvoice;
    expect(sent.status).toBe('SENT');
    expect(sent.events.at(-1)).toEqual({
      type: 'STATUS_CHANGE',
      description: 'DRAFT -> SENT',
      authorId: a.adminId,
    });

    const first = {
      id: 'pay-1',
      amount: 60.5,
      date: '2026-04-01T00:00:00.000Z',
      paymentMethod: 'BANK_TRANSFER',
    };
    const partly = (await gql(a.client, UPDATE, { id: created.id, input: { transactions: [first] } }))
      .updateInvoice;
    expect(partly).toMatchObject({
      status: 'PARTIALLY_PAID',
      paid: 60.5,
      paidExcludingTax: 50,
      datePaid: null,
    });
    expect(partly.transactions).toEqual([
      {
        id: 'pay-1',
        amount: 60.5,
        date: '2026-04-01T00:00:00.000Z',
        paymentMethod: 'BANK_TRANSFER',
        tenantId: a.tenantId,
        created: expect.stringMatching(ISO),
        createdBy: a.adminEmail,
        updated: expect.stringMatching(ISO),
        updatedBy: a.adminEmail,
      },
    ]);
    expect(partly.events.slice(-2).map((e: any) => e.description)).toEqual([
      'SENT -> PARTIALLY_PAID',
      expect.stringContaining('transactions'),
    ]);

    const paid = (
      await gql(a.client, UPDATE, {
        id: created.id,
        input: {
          transactions: [first, { amount: 60.5, date: '2026-04-05T00:00:00.000Z', paymentMethod: 'CASH' }],
        },
      })
    ).updateInvoice;
    expect(paid).toMatchObject({
      status: 'PAID',
      paid: 121,
      paidExcludingTax: 100,
      datePaid: '2026-04-05T00:00:00.000Z',
    });
    expect(paid.transactions[0]).toEqual(partly.transactions[0]);

    // The REST read shows the transactions with every documented field.
    const read = (await a.client.get(`/invoices/find/${created.id}`)).body;
    for (const t of read.transactions) expectKeys(t, INVOICE_TRANSACTION_KEYS);

    const refused = await gqlError(a.client, UPDATE, { id: created.id, input: { status: 'PAID' } });
    expect(refused.status).toBe(400);

    const refunded = (await gql(a.client, UPDATE, { id: created.id, input: { transactions: [] } }))
      .updateInvoice;
    expect(refunded).toMatchObject({ status: 'SENT', paid: 0, paidExcludingTax: 0, datePaid: null });

    // Changing the rows re-computes the totals and the payment status against them.
    const repriced = (
      await gql(a.client, UPDATE, {
        id: created.id,
        input: { rows: [{ quantity: 1, unitPrice: 50, taxRate: 0 }], transactions: [{ amount: 50 }] },
      })
    ).updateInvoice;
    expect(repriced).toMatchObject({ total: 50, totalWithTax: 50, paid: 50, status: 'PAID' });
  });

  it('status moves: nothing returns to DRAFT, CANCELLED is final; an unchanged update appends no event', async () => {
    const inv = (await a.client.post('/invoices', { status: 'SENT' })).body;
    expect(inv.status).toBe('SENT');
    const back = await gqlError(a.client, UPDATE, { id: inv.id, input: { status: 'DRAFT' } });
    expect(back.status).toBe(400);
    expect(back.message).toContain('DRAFT');
    const overdue = (await gql(a.client, UPDATE, { id: inv.id, input: { status: 'OVERDUE' } })).updateInvoice;
    expect(overdue.status).toBe('OVERDUE');
    const cancelled = (await gql(a.client, UPDATE, { id: inv.id, input: { status: 'CANCELLED' } }))
      .updateInvoice;
    expect(eventTypes(cancelled)).toEqual(['CREATE', 'STATUS_CHANGE', 'STATUS_CHANGE']);
    const revived = await gqlError(a.client, UPDATE, { id: inv.id, input: { status: 'SENT' } });
    expect(revived.status).toBe(400);
    const same = (await gql(a.client, UPDATE, { id: inv.id, input: { status: 'CANCELLED' } })).updateInvoice;
    expect(same.events).toHaveLength(3);
    const nulled = (await gql(a.client, UPDATE, { id: inv.id, input: { status: null } })).updateInvoice;
    expect(nulled.status).toBe('CANCELLED');
    const unknown = await gqlError(a.client, UPDATE, { id: UNKNOWN_ID, input: { note: 'x' } });
    expect(unknown.status).toBe(404);
  });

  it('GET /invoices/by-opportunity/{opportunityId}: that opportunity only, by invoice date; the client defaults to its customer', async () => {
    const customer = await createCustomer(a.client, 'Opportune');
    const opp = await createOpportunity(a.client, 'Big deal', customer);
    const other = await createOpportunity(a.client, 'Other deal');
    const late = (
      await a.client.post('/invoices', { opportunityId: opp, invoiceDate: '2026-09-01T00:00:00.000Z' })
    ).body;
    const early = (
      await a.client.post('/invoices', { opportunityId: opp, invoiceDate: '2026-08-01T00:00:00.000Z' })
    ).body;
    await a.client.post('/invoices', { opportunityId: other });
    expect(late.clientId).toBe(customer);
    const own = await createCustomer(a.client, 'Explicit');
    const explicit = (await a.client.post('/invoices', { opportunityId: other, clientId: own })).body;
    expect(explicit.clientId).toBe(own);

    const res = await a.client.get(`/invoices/by-opportunity/${opp}`);
    expect(res.status).toBe(200);
    expect(res.body.map((i: any) => i.id)).toEqual([early.id, late.id]);
    for (const i of res.body) expectKeys(i, INVOICE_KEYS);
    expect((await a.client.get(`/invoices/by-opportunity/${UNKNOWN_ID}`)).body).toEqual([]);
    const graph = await gql(
      a.client,
      `query($id: ID!) { invoicesByOpportunity(opportunityId: $id) { client { name } opportunity { name } subsidiary { id } } }`,
      { id: opp },
    );
    expect(graph.invoicesByOpportunity[0]).toEqual({
      client: { name: 'Opportune' },
      opportunity: { name: 'Big deal' },
      subsidiary: null,
    });
    const malformed = await a.client.get('/invoices/by-opportunity/not-an-id');
    expect(malformed.status).toBe(200);
    expect(malformed.body).toEqual([]);
  });

  it('GET /invoices/count-by-status gives every status, 0 when none; GET /invoices/date-range gives {min, max}', async () => {
    const t = await server.tenant('Counting');
    expect((await t.client.get('/invoices/count-by-status')).body).toEqual({
      DRAFT: 0,
      SENT: 0,
      PARTIALLY_PAID: 0,
      PAID: 0,
      OVERDUE: 0,
      CANCELLED: 0,
    });
    expect((await t.client.get('/invoices/date-range')).body).toEqual({ min: null, max: null });

    await t.client.post('/invoices', { invoiceDate: '2026-02-10T08:30:00.000Z' });
    await t.client.post('/invoices', { invoiceDate: '2025-11-05T00:00:00.000Z', status: 'SENT' });
    await t.client.post('/invoices', { invoiceDate: '2026-07-01T12:00:00.000Z', status: 'CANCELLED' });
    const payable = { rows: [{ quantity: 1, unitPrice: 10, taxRate: 0 }] };
    await t.client.post('/invoices', {
      ...payable,
      transactions: [{ amount: 10 }],
      invoiceDate: '2026-03-01T00:00:00.000Z',
    });
    await t.client.post('/invoices', {
      ...payable,
      transactions: [{ amount: 4 }],
      invoiceDate: '2026-03-02T00:00:00.000Z',
    });

    const counts = await t.client.get('/invoices/count-by-status');
    expect(counts.status).toBe(200);
    expect(counts.body).toEqual({ DRAFT: 1, SENT: 1, PARTIALLY_PAID: 1, PAID: 1, OVERDUE: 0, CANCELLED: 1 });
    const range = await t.client.get('/invoices/date-range');
    expect(range.status).toBe(200);
    expect(range.body).toEqual({ min: '2025-11-05T00:00:00.000Z', max: '2026-07-01T12:00:00.000Z' });
  });

  describe('the family operations', () => {
    let t: TestTenant;
    let x: any;
    let y: any;
    let z: any;

    beforeAll(async () => {
      t = await server.tenant('Family');
      x = (
        await t.client.post('/invoices', {
          invoiceDate: '2026-01-05T00:00:00.000Z',
          rows: [{ quantity: 1, unitPrice: 100 }],
          paymentReference: 'REF-alpha',
        })
      ).body;
      y = (
        await t.client.post('/invoices', {
          invoiceDate: '2026-02-05T00:00:00.000Z',
          currency: 'usd',
          status: 'SENT',
          rows: [{ quantity: 2, unitPrice: 100 }],
          contactEmail: 'billing@beta.test',
        })
      ).body;
      z = (
        await t.client.post('/invoices', {
          invoiceDate: '2026-03-05T00:00:00.000Z',
          rows: [{ quantity: 3, unitPrice: 100, taxRate: 0 }],
          note: '=cmd|calc',
        })
      ).body;
    });

    const ids = (res: any) => res.body.content.map((i: any) => i.id);

    it('GET /invoices/dynamic-search filters, searches, sorts and pages with the page envelope', async () => {
      const all = await t.client.get('/invoices/dynamic-search');
      expect(all.status).toBe(200);
      expectKeys(all.body, PAGE_KEYS);
      expect(all.body).toMatchObject({ totalElements: 3, size: 20, number: 0, first: true, last: true });
      for (const i of all.body.content) expectKeys(i, INVOICE_KEYS);
      expect(ids(await t.client.get('/invoices/dynamic-search?filters=currency:eq:USD'))).toEqual([y.id]);
      expect(
        ids(await t.client.get('/invoices/dynamic-search?filters=total:gte:242&sort=total,asc')),
      ).toEqual([y.id, z.id]);
      expect(
        ids(await t.client.get('/invoices/dynamic-search?filters=invoiceDate:lt:2026-02-01T00:00:00.000Z')),
      ).toEqual([x.id]);
      // y went out and is long past its due date with nothing paid: OVERDUE.
      expect(ids(await t.client.get('/invoices/dynamic-search?filters=status:in:OVERDUE|CANCELLED'))).toEqual(
        [y.id],
      );
      expect(
        ids(await t.client.get(`/invoices/dynamic-search?filters=dueDate:gt:2026-03-01T00:00:00.000Z`)),
      ).toEqual([y.id, z.id]);
      expect(ids(await t.client.get('/invoices/dynamic-search?search=beta'))).toEqual([y.id]);
      expect(ids(await t.client.get('/invoices/dynamic-search?search=ALPHA'))).toEqual([x.id]);
      expect(ids(await t.client.get(`/invoices/dynamic-search?search=${z.invoiceNumber}`))).toEqual([z.id]);
      const paged = await t.client.get('/invoices/dynamic-search?sort=invoiceNumber,desc&page=1&size=2');
      expect(ids(paged)).toEqual([x.id]);
      expect(paged.body).toMatchObject({
        number: 1,
        size: 2,
        totalPages: 2,
        last: true,
        sort: { sorted: true },
      });
      for (const bad of [
        'filters=nope:eq:1',
        'filters=total:gte:abc',
        'filters=status:eq:LOST',
        'filters=invoiceDate:gt:soon',
        'sort=rows,asc',
        'size=1001',
      ]) {
        expectErrorBody(await t.client.get(`/invoices/dynamic-search?${bad}`), 400);
      }
    });

    it('POST /invoices/dynamic-search takes the same search as a body', async () => {
      const res = await t.client.post('/invoices/dynamic-search', {
        filters: { status: ['DRAFT', 'OVERDUE'], total: { gte: 100 } },
        sort: [{ field: 'invoiceDate', ascending: false }],
        page: 0,
        size: 10,
      });
      expect(res.status).toBe(200);
      expect(ids(res)).toEqual([z.id, y.id, x.id]);
      const eur = await t.client.post('/invoices/dynamic-search', {
        filters: { currency: 'EUR' },
        search: ['REF'],
      });
      expect(ids(eur)).toEqual([x.id]);
      expectErrorBody(await t.client.post('/invoices/dynamic-search', { filters: { paid: 'all' } }), 400);
    });

    it('GET /invoices/csv-export gives the page as CSV text with a header of the stored fields', async () => {
      const res = await t.client.get('/invoices/csv-export?sort=invoiceDate,asc');
      expect(res.status).toBe(200);
      expect(typeof res.body).toBe('string');
      const lines = (res.body as string).split('\r\n').filter(Boolean);
      expect(lines).toHaveLength(4);
      const header = lines[0].split(',');
      for (const f of [
        'invoiceNumber',
        'status',
        'total',
        'totalWithTax',
        'dueDate',
        'rows',
        'transactions',
        'pdf.name',
      ])
        expect(header).toContain(f);
      expect(header).not.toContain('version');
      expect(lines[1]).toContain(x.invoiceNumber);
      expect(res.body).toContain("'=cmd|calc");
      const one = await t.client.get('/invoices/csv-export?filters=currency:eq:USD');
      expect((one.body as string).split('\r\n').filter(Boolean)).toHaveLength(2);
    });

    it('DELETE /invoices/delete-list deletes the ids given (ids optional), records the deletion, skips unknown ids', async () => {
      const doomed = (await t.client.post('/invoices', { note: 'doomed' })).body;
      const none = await t.client.delete('/invoices/delete-list');
      expect(none.status).toBe(204);
      expect((await t.client.get(`/invoices/find/${doomed.id}`)).status).toBe(200);
      const res = await t.client.delete(`/invoices/delete-list?ids=${doomed.id},${UNKNOWN_ID}&ids=garbage`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expectErrorBody(await t.client.get(`/invoices/find/${doomed.id}`), 404);
      const log = await server.orm.em
        .getConnection()
        .execute('select action, entity from audit_log where tenant_id = ? and entity_id = ?', [
          t.tenantId,
          doomed.id,
        ]);
      expect(log).toEqual([{ action: 'DELETE', entity: 'Invoice' }]);
      expect((await t.client.get('/invoices/dynamic-search')).body.totalElements).toBe(3);
    });
  });
});
