import { createLogger } from '../../src/logger';
import { eventSettings } from '../../src/events/settings';
import { startEventWorker, type EventWorker } from '../../src/events/worker';
import { markOverdueAndRemind } from '../../src/domain/finance/overdue-reminders';
import { generateRecurringInvoices } from '../../src/domain/finance/recurring-invoices';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { startSmtp } from '../support/smtp';
import { waitFor } from '../events/receiver';
import { workerDatabaseUrl } from '../support/database';
import { childEnv, cliCommands, randomSecret } from '../support/process';
import { DAY, gql } from './helpers';

const row = { description: 'Hosting', quantity: 1, unitPrice: 100, taxRate: 0 };
const UPDATE = `mutation($id: ID!, $input: InvoiceInput!) { updateInvoice(id: $id, input: $input) { id status paid } }`;

// One service, mail server and event worker for the file; the mails are told apart by recipient.
let server: TestServer;
let a: TestTenant;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let worker: EventWorker;

beforeAll(async () => {
  server = await startServer();
  smtp = await startSmtp();
  worker = startEventWorker(server.orm, createLogger('silent'), {
    ...eventSettings({}),
    smtpUrl: smtp.url,
    mailFrom: 'billing@service.test',
    pollIntervalMs: 50,
  });
}, 120_000);
// A tenant per test: each run works on all of its tenant's invoices.
beforeEach(async () => {
  a = await server.tenant('Schedules');
});
afterAll(async () => {
  await worker.stop();
  await smtp.close();
  await server.close();
});

describe('overdue invoices and reminders (markOverdueAndRemind)', () => {
  const read = async (id: string) =>
    (await a.client.get(`/invoices/dynamic-search?filters=id:eq:${id}`)).body.content[0];

  it('past due with money outstanding: OVERDUE, one reminder on the schedule’s day with reminderBody and the PDF, never twice', async () => {
    // Due tomorrow: not overdue yet.
    const created = (
      await a.client.post('/invoices', {
        status: 'SENT',
        contactEmail: 'late@client.test',
        reminderBody: 'Please pay invoice.',
        invoiceDate: new Date(Date.now() - 29 * DAY).toISOString(),
        paymentTermDays: 30,
        rows: [row],
      })
    ).body;
    expect(created.status).toBe('SENT');
    const due = new Date(created.dueDate).getTime();

    // The day after the due date: overdue, but the first reminder is 7 days after.
    let outcome = await markOverdueAndRemind(server.orm.em, a.tenantId, new Date(due + DAY));
    expect(outcome).toMatchObject({ overdue: 1, reminded: 0 });
    expect(await read(created.id)).toMatchObject({
      status: 'OVERDUE',
      reminders: [],
      overdueNotifiedAt: null,
    });
    expect((await a.client.get('/invoices/count-by-status')).body.OVERDUE).toBe(1);
    expect(
      (await a.client.get('/invoices/dynamic-search?filters=status:eq:OVERDUE')).body.content.map(
        (i: { id: string }) => i.id,
      ),
    ).toEqual([created.id]);

    // Day 7, from two processes at once: one reminder.
    const at = new Date(due + 7 * DAY + 3600_000);
    const both = await Promise.all([
      markOverdueAndRemind(server.orm.em, a.tenantId, at),
      markOverdueAndRemind(server.orm.em, a.tenantId, at),
    ]);
    expect(both.map((o) => o.reminded).reduce((x, y) => x + y)).toBe(1);
    const reminded = await read(created.id);
    expect(reminded.reminders).toEqual([{ sentOn: at.toISOString(), createdBy: 'invoicing' }]);
    expect(reminded.overdueNotifiedAt).toBe(at.toISOString());
    expect(reminded.sentMails).toHaveLength(1);
    const [mail] = await waitFor(() => smtp.to('late@client.test').length > 0 && smtp.to('late@client.test'));
    expect(mail.parsed.text).toContain('Please pay invoice.');
    expect(mail.parsed.subject).toContain(created.invoiceNumber);
    expect(mail.parsed.attachments.map((x) => x.filename)).toEqual([`invoice-${created.invoiceNumber}.pdf`]);
    expect(mail.parsed.attachments[0].content.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // The next day: nothing new.
    outcome = await markOverdueAndRemind(server.orm.em, a.tenantId, new Date(due + 8 * DAY));
    expect(outcome).toMatchObject({ overdue: 0, reminded: 0 });
    expect((await read(created.id)).reminders).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.to('late@client.test')).toHaveLength(1);
  });

  it('the tenant’s reminderDays: each day once; after downtime one reminder covers the days missed', async () => {
    await a.client.patch('/tenant', { settings: { reminderDays: [3, 10] } });
    const created = (
      await a.client.post('/invoices', {
        status: 'SENT',
        contactEmail: 'slow@client.test',
        invoiceDate: new Date(Date.now() - 29 * DAY).toISOString(),
        rows: [row],
      })
    ).body;
    const due = new Date(created.dueDate).getTime();
    expect((await markOverdueAndRemind(server.orm.em, a.tenantId, new Date(due + 3 * DAY))).reminded).toBe(1);
    expect((await markOverdueAndRemind(server.orm.em, a.tenantId, new Date(due + 5 * DAY))).reminded).toBe(0);
    expect((await markOverdueAndRemind(server.orm.em, a.tenantId, new Date(due + 30 * DAY))).reminded).toBe(
      1,
    );
    expect((await markOverdueAndRemind(server.orm.em, a.tenantId, new Date(due + 31 * DAY))).reminded).toBe(
      0,
    );
    expect((await read(created.id)).reminders).toHaveLength(2);
  });

  it('payments: partly paid stays OVERDUE, paid in full is PAID, a refund after it past due is OVERDUE again; nothing outstanding is never overdue', async () => {
    const created = (
      await a.client.post('/invoices', {
        status: 'SENT',
        invoiceDate: new Date(Date.now() - 40 * DAY).toISOString(),
        paymentTermDays: 30,
        rows: [row],
      })
    ).body;
    // Past due on the tenant's day already: the write itself says so.
    expect(created.status).toBe('OVERDUE');
    const partly = (
      await gql(a.client, UPDATE, { id: created.id, input: { transactions: [{ amount: 40 }] } })
    ).updateInvoice;
    expect(partly).toMatchObject({ status: 'OVERDUE', paid: 40 });
    const paid = (
      await gql(a.client, UPDATE, {
        id: created.id,
        input: { transactions: [{ amount: 40 }, { amount: 60 }] },
      })
    ).updateInvoice;
    expect(paid.status).toBe('PAID');
    expect((await markOverdueAndRemind(server.orm.em, a.tenantId, new Date())).overdue).toBe(0);
    expect((await read(created.id)).status).toBe('PAID');
    const refunded = (
      await gql(a.client, UPDATE, {
        id: created.id,
        input: { transactions: [{ amount: 40 }, { amount: 60 }, { amount: -100 }] },
      })
    ).updateInvoice;
    expect(refunded.status).toBe('OVERDUE');

    // Not past due: a refund returns it to SENT; an invoice of nothing is never overdue.
    const fresh = (
      await a.client.post('/invoices', { status: 'SENT', rows: [row], transactions: [{ amount: 10 }] })
    ).body;
    expect(fresh.status).toBe('PARTIALLY_PAID');
    expect(
      (await gql(a.client, UPDATE, { id: fresh.id, input: { transactions: [] } })).updateInvoice.status,
    ).toBe('SENT');
    const empty = (
      await a.client.post('/invoices', {
        status: 'SENT',
        invoiceDate: new Date(Date.now() - 40 * DAY).toISOString(),
      })
    ).body;
    expect(empty.status).toBe('SENT');
    await markOverdueAndRemind(server.orm.em, a.tenantId, new Date(Date.now() + 60 * DAY));
    expect((await read(empty.id)).status).toBe('SENT');
    // A draft was never sent: not overdue.
    const draft = (
      await a.client.post('/invoices', {
        invoiceDate: new Date(Date.now() - 40 * DAY).toISOString(),
        rows: [row],
      })
    ).body;
    expect(draft.status).toBe('DRAFT');
    await markOverdueAndRemind(server.orm.em, a.tenantId, new Date(Date.now() + 60 * DAY));
    expect((await read(draft.id)).status).toBe('DRAFT');
  });
});

describe('recurring agreements (generateRecurringInvoices)', () => {
  const all = async () =>
    (await a.client.get('/invoices/dynamic-search?sort=invoiceDate,asc&size=100')).body.content as {
      id: string;
      invoiceNumber: string;
      invoiceDate: string;
      status: string;
      type: string;
      rows: { description: string }[];
      recurringAgreement: unknown;
      totalWithTax: number;
      sentMails: string[];
    }[];

  it('each missed period once, dated its day, numbered, rows copied; nextInvoiceDate moves past today; two processes make each once; autoSend mails them', async () => {
    const source = (
      await a.client.post('/invoices', {
        type: 'RECURRING',
        contactEmail: 'monthly@client.test',
        invoiceDate: '2026-07-01T00:00:00.000Z',
        rows: [row],
        recurringAgreement: {
          intervalMonths: 1,
          nextInvoiceDate: '2026-08-01T00:00:00.000Z',
          autoSend: true,
        },
      })
    ).body;
    const today = new Date('2026-10-15T09:00:00.000Z');
    const outcomes = await Promise.all([
      generateRecurringInvoices(server.orm.em, a.tenantId, today),
      generateRecurringInvoices(server.orm.em, a.tenantId, today),
    ]);
    expect(outcomes.map((o) => o.generated).reduce((x, y) => x + y)).toBe(3);
    expect(outcomes.map((o) => o.sent).reduce((x, y) => x + y)).toBe(3);
    const copies = (await all()).filter((i) => i.id !== source.id);
    expect(copies.map((i) => i.invoiceDate)).toEqual([
      '2026-08-01T00:00:00.000Z',
      '2026-09-01T00:00:00.000Z',
      '2026-10-01T00:00:00.000Z',
    ]);
    for (const c of copies) {
      expect(c).toMatchObject({
        status: 'SENT',
        type: 'MANUAL',
        recurringAgreement: null,
        totalWithTax: 100,
      });
      expect(c.rows.map((r) => r.description)).toEqual(['Hosting']);
      expect(c.sentMails).toHaveLength(1);
    }
    expect(new Set(copies.map((c) => c.invoiceNumber)).size).toBe(3);
    const after = (await all()).find((i) => i.id === source.id)!;
    expect(after.recurringAgreement).toMatchObject({ nextInvoiceDate: '2026-11-01T00:00:00.000Z' });
    const mails = await waitFor(
      () => smtp.to('monthly@client.test').length === 3 && smtp.to('monthly@client.test'),
    );
    expect(mails.map((m) => m.parsed.attachments[0].filename).sort()).toEqual(
      copies.map((c) => `invoice-${c.invoiceNumber}.pdf`).sort(),
    );

    // Again the same day: nothing.
    expect((await generateRecurringInvoices(server.orm.em, a.tenantId, today)).generated).toBe(0);
  });

  it('without autoSend the copies stay DRAFT; nothing after endDate; a cancelled source makes none', async () => {
    const source = (
      await a.client.post('/invoices', {
        type: 'RECURRING',
        contactEmail: 'weekly@client.test',
        rows: [row],
        recurringAgreement: {
          intervalDays: 7,
          nextInvoiceDate: '2026-09-01T00:00:00.000Z',
          endDate: '2026-09-20T00:00:00.000Z',
        },
      })
    ).body;
    const before = (await all()).length;
    const outcome = await generateRecurringInvoices(
      server.orm.em,
      a.tenantId,
      new Date('2026-12-01T00:00:00.000Z'),
    );
    expect(outcome).toMatchObject({ generated: 3, sent: 0 });
    const made = (await all())
      .slice(0)
      .filter((i) => i.invoiceDate.startsWith('2026-09') && i.id !== source.id);
    expect(made.map((i) => [i.invoiceDate, i.status])).toEqual([
      ['2026-09-01T00:00:00.000Z', 'DRAFT'],
      ['2026-09-08T00:00:00.000Z', 'DRAFT'],
      ['2026-09-15T00:00:00.000Z', 'DRAFT'],
    ]);
    expect((await all()).length).toBe(before + 3);

    const cancelled = (
      await a.client.post('/invoices', {
        type: 'RECURRING',
        status: 'CANCELLED',
        rows: [row],
        recurringAgreement: { intervalDays: 1, nextInvoiceDate: '2026-09-01T00:00:00.000Z' },
      })
    ).body;
    expect(cancelled.status).toBe('CANCELLED');
    expect(
      (await generateRecurringInvoices(server.orm.em, a.tenantId, new Date('2026-12-01T00:00:00.000Z')))
        .generated,
    ).toBe(0);
  });
});

describe('the scheduled jobs, driven by bms jobs:run', () => {
  let env: NodeJS.ProcessEnv;
  const { ok } = cliCommands(() => env);
  beforeAll(async () => {
    env = childEnv({ DATABASE_URL: await workerDatabaseUrl(), JWT_SECRET: randomSecret() });
  });

  it('invoices.recurring and invoices.overdue run for one tenant at the clock given', async () => {
    const t = await server.tenant('Jobs');
    const unpaid = (
      await t.client.post('/invoices', {
        status: 'SENT',
        invoiceDate: new Date(Date.now() - 29 * DAY).toISOString(),
        paymentTermDays: 30,
        rows: [row],
      })
    ).body;
    await t.client.post('/invoices', {
      type: 'RECURRING',
      rows: [row],
      recurringAgreement: { intervalDays: 7, nextInvoiceDate: new Date(Date.now() - DAY).toISOString() },
    });
    const now = new Date(new Date(unpaid.dueDate).getTime() + 8 * DAY).toISOString();
    const recurring = await ok('jobs:run', 'invoices.recurring', '--tenant', t.tenantId, '--now', now);
    expect(recurring).toEqual([
      expect.objectContaining({ job: 'invoices.recurring', tenantId: t.tenantId, outcome: 'ok', items: 2 }),
    ]);
    const overdue = await ok('jobs:run', 'invoices.overdue', '--tenant', t.tenantId, '--now', now);
    // The unpaid invoice becomes overdue (no recipient: no reminder mailed); the agreement and its two new DRAFTs are not.
    expect(overdue).toEqual([
      expect.objectContaining({ job: 'invoices.overdue', tenantId: t.tenantId, outcome: 'ok', items: 1 }),
    ]);
    const read = (await t.client.get(`/invoices/dynamic-search?filters=id:eq:${unpaid.id}`)).body.content[0];
    expect(read.status).toBe('OVERDUE');
    expect((await t.client.get('/invoices/count-by-status')).body).toMatchObject({ OVERDUE: 1, DRAFT: 3 });
  });

  it("invoices.recurring commits each agreement's invoices on their own, not the run's in one transaction", async () => {
    // In one transaction, a run held the tenant's invoice-number lock (every create of the
    // tenant waited) and each agreement's row lock until its last agreement was done.
    const t = await server.tenant('Own transactions');
    for (const n of [1, 2, 3])
      await t.client.post('/invoices', {
        type: 'RECURRING',
        note: `agreement ${n}`,
        rows: [row],
        recurringAgreement: {
          intervalDays: 7,
          nextInvoiceDate: new Date(Date.now() - 8 * DAY).toISOString(),
        },
      });
    const run = await ok('jobs:run', 'invoices.recurring', '--tenant', t.tenantId);
    expect(run).toEqual([expect.objectContaining({ outcome: 'ok', items: 6 })]);
    // The transaction that wrote each copy (xmin): one per agreement, both of its periods in it.
    const copies = (await server.orm.em
      .getConnection()
      .execute(
        `select note, xmin::text as xmin from invoice where tenant_id = ? and recurring_agreement is null`,
        [t.tenantId],
      )) as { note: string; xmin: string }[];
    const transactions = new Map<string, Set<string>>();
    for (const c of copies) transactions.set(c.note, (transactions.get(c.note) ?? new Set()).add(c.xmin));
    expect([...transactions.keys()].sort()).toEqual(['agreement 1', 'agreement 2', 'agreement 3']);
    for (const xmins of transactions.values()) expect(xmins.size).toBe(1);
    expect(new Set(copies.map((c) => c.xmin)).size).toBe(3);
  });
});
