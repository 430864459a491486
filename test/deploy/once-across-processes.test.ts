import type { MikroORM } from '@mikro-orm/core';
import { openOrm } from '../../src/db/orm';
import { invoiceJobs } from '../../src/domain/finance/invoice-jobs';
import { JobScheduler } from '../../src/jobs/scheduler';
import { createLogger } from '../../src/logger';
import { ormComposition } from '../../src/orm-composition';
import { Client } from '../support/http';
import { childEnv, cliRunner, errorLines } from '../support/process';
import { startSmtp } from '../support/smtp';
import { gql } from '../inventory/helpers';
import { deployment, eventually, startPair, type Deployment, type ProcessPair } from './deployment';

/**
 * The once-per-period and once-per-crossing rules hold across two service processes on one
 * PostgreSQL database: `invoices.recurring` and `invoices.overdue` run by two `bms jobs:run`
 * processes at the same moment, or by two schedulers (each with its own pool) ticking at once,
 * make each period's invoice once and mail each reminder once (the SMTP server counts what the
 * processes' mail delivery sent), and stock driven below its minimum
 * through both processes at once raises `stock_inventory.low` and the `stock.low` notification
 * once per crossing. Needs DATABASE_URL: the embedded database serves one process by nature (its
 * PGlite host is the process's own), so on it this file is skipped, as every two-process test.
 */
const onServer = process.env.DATABASE_URL ? describe : describe.skip;
jest.setTimeout(300_000);

const DAY = 86_400_000;

onServer('once across two service processes', () => {
  let d: Deployment;
  let processes: ProcessPair | undefined;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let tenant: Awaited<ReturnType<Deployment['tenant']>>;
  let one: Client;
  let two: Client;
  const cli = cliRunner(() => childEnv({ DATABASE_URL: d.url, JWT_SECRET: d.secret }));

  beforeAll(async () => {
    smtp = await startSmtp();
    d = await deployment('once');
    processes = await startPair(d, {
      RATE_LIMIT_PER_CREDENTIAL: '0',
      RATE_LIMIT_PER_TENANT: '0',
      DB_POOL_SIZE: '4',
      // The schedulers tick once at start, before the tenant exists, and not again during the
      // test: the runs raced here are the CLI's, started together.
      JOBS_TICK_MS: String(3_600_000),
      SMTP_URL: smtp.url,
      MAIL_FROM: 'billing@service.test',
      EVENT_POLL_INTERVAL_MS: '100',
    });
    tenant = await d.tenant('Once');
    [one, two] = processes.bases.map((b) => new Client(b, tenant.token()));
  });
  afterAll(async () => {
    await processes?.stop();
    await d?.close();
    await smtp?.close();
  });

  const count = async (text: string, params: unknown[]) =>
    Number((await d.sql.query(text, params)).rows[0].n);
  /** Both processes run the job for the tenant at the same moment, each a CLI process of its own. */
  const runInBoth = async (job: string, now: string) => {
    const runs = await Promise.all(
      [0, 1].map(() => cli.run('jobs:run', job, '--tenant', tenant.tenantId, '--now', now)),
    );
    for (const r of runs) expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    return runs.map((r) => JSON.parse(r.stdout) as { outcome: string; items: number }[]);
  };
  const mailsTo = (email: string) => smtp.to(email).length;

  it("makes each recurring period's invoice once and mails each reminder once, run by both at once", async () => {
    const now = new Date();
    const row = { description: 'Hosting', quantity: 1, unitPrice: 100, taxRate: 0 };
    // Weekly since 20 days ago: three periods are due (20, 13 and 6 days ago); the copies are due
    // in 30 days, so the overdue run leaves them alone.
    const source = await one.post('/invoices', {
      type: 'RECURRING',
      contactEmail: 'weekly@client.test',
      invoiceDate: new Date(now.getTime() - 27 * DAY).toISOString(),
      paymentTermDays: 30,
      rows: [row],
      recurringAgreement: {
        intervalDays: 7,
        nextInvoiceDate: new Date(now.getTime() - 20 * DAY).toISOString(),
        autoSend: true,
      },
    });
    expect(source.status).toBe(201);
    // Two invoices 10 and 15 days past due: each is due its first reminder (7 days after).
    for (const [email, daysAgo] of [
      ['late@client.test', 40],
      ['later@client.test', 45],
    ] as const) {
      const sent = await two.post('/invoices', {
        status: 'SENT',
        contactEmail: email,
        invoiceDate: new Date(now.getTime() - daysAgo * DAY).toISOString(),
        paymentTermDays: 30,
        rows: [row],
      });
      expect(sent.status).toBe(201);
      // The status follows the money at every write: past due, it is OVERDUE at once.
      expect(sent.body.status).toBe('OVERDUE');
    }

    const recurring = await runInBoth('invoices.recurring', now.toISOString());
    expect(recurring.flat().map((r) => r.outcome)).toEqual(['ok', 'ok']);
    expect(recurring.flat().reduce((s, r) => s + r.items, 0)).toBe(3);
    const copies = await d.sql.query(
      `select invoice_number, invoice_date, status from invoice
       where tenant_id = $1 and contact_email = 'weekly@client.test' and recurring_agreement is null
       order by invoice_date`,
      [tenant.tenantId],
    );
    expect(copies.rows).toHaveLength(3);
    expect(new Set(copies.rows.map((r) => new Date(r.invoice_date).toISOString().slice(0, 10))).size).toBe(3);
    expect(new Set(copies.rows.map((r) => r.invoice_number)).size).toBe(3);
    expect(copies.rows.every((r) => r.status === 'SENT')).toBe(true);

    const overdue = await runInBoth('invoices.overdue', now.toISOString());
    // Two reminders go: two items between the two runs.
    expect(overdue.flat().reduce((s, r) => s + r.items, 0)).toBe(2);
    const reminded = await d.sql.query(
      `select contact_email, status, jsonb_array_length(reminders) as reminders, cardinality(sent_mails) as mails
       from invoice where tenant_id = $1 and contact_email in ('late@client.test', 'later@client.test')
       order by contact_email`,
      [tenant.tenantId],
    );
    expect(reminded.rows).toEqual([
      { contact_email: 'late@client.test', status: 'OVERDUE', reminders: 1, mails: 1 },
      { contact_email: 'later@client.test', status: 'OVERDUE', reminders: 1, mails: 1 },
    ]);

    // What the processes' mail delivery sent: three invoices, one reminder each.
    await eventually('the mails to be delivered', async () =>
      mailsTo('weekly@client.test') >= 3 &&
      mailsTo('late@client.test') >= 1 &&
      mailsTo('later@client.test') >= 1
        ? true
        : undefined,
    );
    // Both processes deliver mail; a while later still nothing twice.
    await new Promise((r) => setTimeout(r, 1500));
    expect([
      mailsTo('weekly@client.test'),
      mailsTo('late@client.test'),
      mailsTo('later@client.test'),
    ]).toEqual([3, 1, 1]);
    expect(smtp.to('late@client.test')[0].parsed.subject).toMatch(/^Reminder: /);

    // Run again by both: nothing more.
    const again = [
      ...(await runInBoth('invoices.recurring', now.toISOString())),
      ...(await runInBoth('invoices.overdue', now.toISOString())),
    ];
    expect(again.flat().reduce((s, r) => s + r.items, 0)).toBe(0);
    expect(
      await count(
        `select count(*)::int as n from invoice where tenant_id = $1 and contact_email = 'weekly@client.test'`,
        [tenant.tenantId],
      ),
    ).toBe(4);
  });

  it("makes a period's invoices and reminders once when two schedulers, each with its own pool, tick at once", async () => {
    const ticking = await d.tenant('Ticking');
    const client = new Client(processes!.bases[0], ticking.token());
    const now = new Date();
    const row = { description: 'Support', quantity: 1, unitPrice: 50, taxRate: 0 };
    expect(
      (
        await client.post('/invoices', {
          type: 'RECURRING',
          contactEmail: 'ticking@client.test',
          invoiceDate: new Date(now.getTime() - 20 * DAY).toISOString(),
          paymentTermDays: 30,
          rows: [row],
          recurringAgreement: {
            intervalDays: 5,
            nextInvoiceDate: new Date(now.getTime() - 12 * DAY).toISOString(),
            autoSend: true,
          },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await client.post('/invoices', {
          status: 'SENT',
          contactEmail: 'ticking-late@client.test',
          invoiceDate: new Date(now.getTime() - 40 * DAY).toISOString(),
          paymentTermDays: 30,
          rows: [row],
        })
      ).status,
    ).toBe(201);
    // Two apps' schedulers: separate ORMs and pools on the same database, as two processes have.
    const orms: MikroORM[] = [];
    try {
      for (let k = 0; k < 2; k++)
        orms.push(await openOrm({ composition: ormComposition, clientUrl: d.url, poolMax: 2 }));
      const silent = createLogger('silent');
      const schedulers = orms.map((orm) => new JobScheduler(orm, invoiceJobs, silent));
      const ours = (await Promise.all(schedulers.map((s) => s.tick(now))))
        .flat()
        .filter((r) => r.tenantId === ticking.tenantId);
      // Each job's period of this tenant claimed and run once: periods 12, 7 and 2 days ago, one reminder.
      expect(ours.map((r) => [r.job, r.outcome, r.items]).sort()).toEqual([
        ['invoices.overdue', 'ok', 1],
        ['invoices.recurring', 'ok', 3],
      ]);
      // Ticking again in the same period: nothing.
      const again = (await Promise.all(schedulers.map((s) => s.tick(now))))
        .flat()
        .filter((r) => r.tenantId === ticking.tenantId);
      expect(again).toEqual([]);
    } finally {
      for (const orm of orms) await orm.close(true);
    }
    await eventually('the mails to be delivered', async () =>
      mailsTo('ticking@client.test') >= 3 && mailsTo('ticking-late@client.test') >= 1 ? true : undefined,
    );
    await new Promise((r) => setTimeout(r, 1500));
    expect([mailsTo('ticking@client.test'), mailsTo('ticking-late@client.test')]).toEqual([3, 1]);
  });

  it('raises stock_inventory.low and the low-stock notification once per crossing, driven through both', async () => {
    const site = (
      await gql(one, `mutation($input: StockSiteInput!) { createStockSite(input: $input) { id } }`, {
        input: { name: 'Pantry' },
      })
    ).createStockSite.id as string;
    const flour = (
      await gql(one, `mutation($input: ProductInput!) { createProduct(input: $input) { id } }`, {
        input: { name: 'Flour' },
      })
    ).createProduct.id as string;
    const inventoryId = (
      await gql(
        two,
        `mutation($input: CreateStockInventoryInput!) { createStockInventory(input: $input) { id } }`,
        { input: { productId: flour, siteId: site, minimum: 5, maximum: 50 } },
      )
    ).createStockInventory.id as string;
    const lowEvents = () =>
      count(
        `select count(*)::int as n from outbox_event where tenant_id = $1 and resource_id = $2 and type = 'stock_inventory.low'`,
        [tenant.tenantId, inventoryId],
      );
    const notifications = () =>
      count(
        `select count(*)::int as n from notification where tenant_id = $1 and scope = 'stock.low' and action_url = $2`,
        [tenant.tenantId, `/inventory/${inventoryId}`],
      );
    const status = async () => (await one.get(`/inventory/find/${inventoryId}`)).body.status as string;
    /** Sets the quantity through each process in turn, all requests at once. */
    const adjustAtOnce = async (quantities: number[]) => {
      const answers = await Promise.all(
        quantities.map((newQuantity, i) =>
          (i % 2 ? two : one).post('/inventory/adjust', { productId: flour, stockSiteId: site, newQuantity }),
        ),
      );
      for (const a of answers) expect(a.status).toBe(200);
    };

    // Made empty: the first crossing.
    expect([await lowEvents(), await notifications()]).toEqual([1, 1]);
    const added = await two.post('/inventory', {
      stockSiteId: site,
      products: [{ productId: flour, quantity: 20, price: 1 }],
    });
    expect(added.status).toBe(201);
    expect(await status()).toBe('IN_STOCK');

    // Below the minimum through both processes at once: one crossing.
    await adjustAtOnce([4, 3, 2, 4, 0, 1]);
    expect(['LOW_STOCK', 'OUT_OF_STOCK']).toContain(await status());
    expect([await lowEvents(), await notifications()]).toEqual([2, 2]);

    // Back above through both at once, then below again through both at once: once more.
    await adjustAtOnce([30, 25, 40, 12]);
    expect(await status()).toBe('IN_STOCK');
    expect([await lowEvents(), await notifications()]).toEqual([2, 2]);
    await adjustAtOnce([5, 1, 3, 2]);
    expect([await lowEvents(), await notifications()]).toEqual([3, 3]);

    for (const s of processes!.services) expect(errorLines(s.stdout())).toEqual([]);
  });
});
