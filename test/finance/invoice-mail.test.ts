import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { createLogger } from '../../src/logger';
import { eventSettings, type EventSettings } from '../../src/events/settings';
import { startEventWorker, type EventWorker } from '../../src/events/worker';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody } from '../support/http';
import { cliCommands } from '../support/process';
import { startSmtp } from '../support/smtp';
import { statementsDuring } from '../support/statements';
import { waitFor } from '../events/receiver';
import { gql, gqlError } from './helpers';

const settingsWith = (smtpUrl: string | undefined, mailDir?: string): EventSettings => ({
  ...eventSettings({}),
  smtpUrl,
  mailDir,
  mailFrom: 'billing@service.test',
  retryBaseMs: 100,
  retryMaxMs: 200,
  pollIntervalMs: 50,
});

const row = { description: 'Consulting', quantity: 2, unitPrice: 50, taxRate: 21 };

/** The text of a PDF where Debian's poppler-utils is installed; null elsewhere. */
function pdfText(pdf: Buffer): string | null {
  if (!fs.existsSync('/usr/bin/pdftotext')) return null;
  const file = path.join(os.tmpdir(), `bms-invoice-mail-${process.pid}-${Date.now()}.pdf`);
  fs.writeFileSync(file, pdf);
  try {
    return execFileSync('/usr/bin/pdftotext', ['-layout', file, '-']).toString();
  } finally {
    fs.rmSync(file);
  }
}

describe('tenant defaults for invoices', () => {
  let server: TestServer;
  let a: TestTenant;
  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Defaults');
  }, 120_000);
  afterAll(() => server.close());

  it('a create without currency, tax rate or payment term takes the tenant’s defaultCurrency, defaultVat and defaultPaymentTermDays', async () => {
    const plain = (await a.client.post('/invoices', { rows: [{ quantity: 1, unitPrice: 100 }] })).body;
    expect(plain).toMatchObject({ currency: 'EUR', paymentTermDays: 30, totalTax: 21 });
    expect(plain.rows[0].taxRate).toBe(21);

    const put = await a.client.patch('/tenant', {
      settings: {
        defaultVat: 9,
        defaultCurrency: 'usd',
        defaultPaymentTermDays: 14,
        reminderDays: [14, 7, 7],
      },
    });
    expect(put.status).toBe(200);
    expect(put.body.settings).toMatchObject({
      defaultVat: 9,
      defaultPaymentTermDays: 14,
      reminderDays: [7, 14],
    });

    const res = await a.client.post('/invoices', {
      invoiceDate: '2026-03-01T00:00:00.000Z',
      rows: [
        { quantity: 1, unitPrice: 100 },
        { quantity: 1, unitPrice: 100, taxRate: 21 },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      currency: 'USD',
      paymentTermDays: 14,
      dueDate: '2026-03-15T00:00:00.000Z',
      totalTax: 30,
      totalWithTax: 230,
    });
    expect(res.body.rows.map((r: { taxRate: number }) => r.taxRate)).toEqual([9, 21]);
    // What a create names wins.
    const named = (await a.client.post('/invoices', { currency: 'GBP', paymentTermDays: 5 })).body;
    expect(named).toMatchObject({ currency: 'GBP', paymentTermDays: 5 });
    // Purchase invoices take the currency and the rate too.
    const ap = await a.client.post('/ap-invoices', { rows: [{ quantity: 1, unitPrice: 10 }] });
    expect(ap.status).toBe(201);
    expect(ap.body).toMatchObject({ currency: 'USD', taxAmount: 0.9 });
  });

  it('refuses settings the invoices cannot use, naming the field', async () => {
    for (const [settings, field] of [
      [{ defaultVat: 150 }, 'settings.defaultVat'],
      [{ defaultPaymentTermDays: -1 }, 'settings.defaultPaymentTermDays'],
      [{ reminderDays: [0] }, 'settings.reminderDays'],
      [{ defaultCurrency: 'euro' }, 'settings.defaultCurrency'],
    ] as const) {
      const res = await a.client.patch('/tenant', { settings });
      expectErrorBody(res, 400);
      expect(res.body.detail).toContain(field);
    }
  });
});

describe('sending an invoice', () => {
  let server: TestServer;
  let a: TestTenant;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let worker: EventWorker | undefined;
  const mailDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bms-outbox-mail-'));

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Sender');
    // The first message to the customer is refused (a 451): the outbox tries it again.
    smtp = await startSmtp(1, (to) => to.includes('customer@client.test'));
  }, 120_000);
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
  });
  afterAll(async () => {
    await smtp.close();
    await server.close();
    fs.rmSync(mailDir, { recursive: true, force: true });
  });

  const invoice = async (body: Record<string, unknown> = {}) => {
    const res = await a.client.post('/invoices', {
      contactEmail: 'customer@client.test',
      rows: [row],
      ...body,
    });
    expect(res.status).toBe(201);
    return res.body as { id: string; invoiceNumber: string };
  };

  it('POST /invoices/{id}/send mails the PDF through the outbox, writes a SentMail, DRAFT becomes SENT, invoice.sent', async () => {
    const inv = await invoice({ mailBody: 'Our invoice for March.' });
    worker = startEventWorker(server.orm, createLogger('silent'), settingsWith(smtp.url));
    const res = await a.client.post(`/invoices/${inv.id}/send`, {});
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('SENT');
    expect(res.body.sentMails).toHaveLength(1);

    const [mail] = await waitFor(
      () => smtp.to('customer@client.test').length > 0 && smtp.to('customer@client.test'),
    );
    expect(smtp.offeredTo('customer@client.test')).toBe(2);
    expect(mail.parsed.subject).toBe(
      `Invoice ${inv.invoiceNumber} from ${(await a.client.get('/tenant')).body.name}`,
    );
    expect(mail.parsed.text).toContain('Our invoice for March.');
    expect(mail.parsed.from?.text).toContain('billing@service.test');
    const [pdf] = mail.parsed.attachments;
    expect(mail.parsed.attachments).toHaveLength(1);
    expect(pdf.filename).toBe(`invoice-${inv.invoiceNumber}.pdf`);
    expect(pdf.contentType).toBe('application/pdf');
    expect(pdf.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.content.subarray(-8).toString('latin1')).toContain('%%EOF');
    const text = pdfText(pdf.content);
    if (text !== null) expect(text).toContain(inv.invoiceNumber);

    const sent = await a.client.get(`/sent-mails/find/${res.body.sentMails[0]}`);
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ recipient: 'customer@client.test', subject: mail.parsed.subject });

    const history = (await a.client.get(`/invoices/dynamic-search?filters=id:eq:${inv.id}`)).body.content[0];
    expect(history.events.map((e: { type: string }) => e.type)).toContain('STATUS_CHANGE');
    const [event] = await server.orm.em
      .fork()
      .getConnection()
      .execute(
        `select count(*)::int as n from outbox_event where tenant_id = ? and resource_id = ? and type = 'invoice.sent'`,
        [a.tenantId, inv.id],
      );
    expect(event.n).toBe(1);
  });

  it("a send's e-mail reports its SentMail's event, known from the send's own flush: the outbox is not read back", async () => {
    const inv = await invoice();
    let status = 0;
    let sentMails: string[] = [];
    const statements = await statementsDuring(async () => {
      const res = await a.client.post(`/invoices/${inv.id}/send`, {});
      status = res.status;
      sentMails = (res.body as { sentMails: string[] }).sentMails;
    });
    expect(status).toBe(200);
    expect(statements.filter((s) => /^select .* from "outbox_event"/is.test(s))).toEqual([]);
    const [delivery] = await server.orm.em
      .fork()
      .getConnection()
      .execute(
        `select d.event_type, e.type, e.resource_id from event_delivery d join outbox_event e on e.tenant_id = d.tenant_id and e.id = d.event_id
          where d.tenant_id = ? and d.channel = 'EMAIL' and e.resource_id = ?`,
        [a.tenantId, sentMails[0]],
      );
    expect(delivery).toMatchObject({ type: 'sent_mail.created', event_type: 'invoice.mail' });
  });

  it('GraphQL sendInvoice takes recipients, subject and body; the built-in text follows the tenant’s language', async () => {
    await a.client.patch('/tenant', { settings: { defaultLanguage: 'nl' } });
    const inv = await invoice();
    worker = startEventWorker(server.orm, createLogger('silent'), settingsWith(smtp.url));
    const data = await gql(
      a.client,
      `mutation($id: ID!, $input: SendInvoiceInput) { sendInvoice(id: $id, input: $input) { status sentMails } }`,
      { id: inv.id, input: { recipients: ['one@client.test', 'two@client.test'] } },
    );
    expect(data.sendInvoice.status).toBe('SENT');
    expect(data.sendInvoice.sentMails).toHaveLength(2);
    const mails = await waitFor(
      () =>
        smtp.to('two@client.test').length > 0 &&
        smtp.to('one@client.test').length > 0 && [
          ...smtp.to('one@client.test'),
          ...smtp.to('two@client.test'),
        ],
    );
    expect(mails[0].parsed.subject).toBe(
      `Factuur ${inv.invoiceNumber} van ${(await a.client.get('/tenant')).body.name}`,
    );
    expect(mails[0].parsed.text).toContain('Beste klant');

    const custom = await a.client.post(`/invoices/${inv.id}/send`, {
      recipients: ['three@client.test'],
      subject: 'Your invoice',
      body: 'See attached.',
    });
    expect(custom.status).toBe(200);
    expect(custom.body.sentMails).toHaveLength(3);
    const [third] = await waitFor(
      () => smtp.to('three@client.test').length > 0 && smtp.to('three@client.test'),
    );
    expect(third.parsed.subject).toBe('Your invoice');
    expect(third.parsed.text?.trim()).toBe('See attached.');
    await a.client.patch('/tenant', { settings: {} });
  });

  it('no recipient is a 400 naming recipients; a cancelled invoice is a 409; an unknown one a 404; nothing is queued', async () => {
    const bare = await invoice({ contactEmail: null });
    const none = await a.client.post(`/invoices/${bare.id}/send`, {});
    expectErrorBody(none, 400);
    expect(none.body.detail).toContain('recipients');
    const bad = await a.client.post(`/invoices/${bare.id}/send`, { recipients: ['not-an-address'] });
    expectErrorBody(bad, 400);
    expect(JSON.stringify(bad.body)).toContain('recipients');

    const cancelled = await invoice({ status: 'CANCELLED' });
    const refused = await a.client.post(`/invoices/${cancelled.id}/send`, {});
    expectErrorBody(refused, 409);
    expect(
      (await a.client.get(`/invoices/dynamic-search?filters=id:eq:${bare.id}`)).body.content[0],
    ).toMatchObject({
      status: 'DRAFT',
      sentMails: [],
    });
    expectErrorBody(await a.client.post(`/invoices/6a1e7d1c-3b0b-4a7e-9d6f-0000000000aa/send`, {}), 404);
    const err = await gqlError(a.client, `mutation($id: ID!) { sendInvoice(id: $id) { id } }`, {
      id: cancelled.id,
    });
    expect(err.status).toBe(409);
  });

  it('another tenant’s invoice cannot be sent (404)', async () => {
    const inv = await invoice();
    const b = await server.tenant('Other');
    expectErrorBody(await b.client.post(`/invoices/${inv.id}/send`, {}), 404);
  });

  it('with the tenant’s eInvoiceFormat the mail carries the e-invoice XML too; missing details are a 409 naming them, nothing sent', async () => {
    const xml = new XMLParser({ removeNSPrefix: true, ignoreAttributes: false, parseTagValue: false });
    const bad = await a.client.patch('/tenant', { settings: { eInvoiceFormat: 'pdf' } });
    expectErrorBody(bad, 400);
    expect(bad.body.detail).toContain('settings.eInvoiceFormat');
    const on = await a.client.patch('/tenant', { settings: { eInvoiceFormat: 'ubl' } });
    expect(on.status).toBe(200);
    expect(on.body.settings.eInvoiceFormat).toBe('ubl');

    // The seller has no VAT number or country yet, and the invoice names no customer.
    const early = await invoice({ contactEmail: 'peppol@client.test' });
    const refused = await a.client.post(`/invoices/${early.id}/send`, {});
    expectErrorBody(refused, 409);
    const named = JSON.stringify(refused.body);
    for (const field of ['tenant.billingInfo.vatNumber', 'tenant.billingInfo.address.country', 'clientId'])
      expect(named).toContain(field);
    const unsent = (await a.client.get(`/invoices/dynamic-search?filters=id:eq:${early.id}`)).body.content[0];
    expect(unsent).toMatchObject({ status: 'DRAFT', sentMails: [] });

    expect(
      (
        await a.client.patch('/tenant', {
          billingInfo: {
            vatNumber: 'NL123456789B01',
            email: 'billing@seller.example',
            address: {
              street: 'Main',
              houseNumber: '1',
              postalCode: '3511 AA',
              city: 'Utrecht',
              country: 'NL',
            },
          },
        })
      ).status,
    ).toBe(200);
    const buyer = await a.client.post('/customers', {
      name: 'Buyer B.V.',
      email: 'ap@buyer.example',
      country: 'NL',
      vatNumber: 'NL987654321B01',
    });
    expect(buyer.status).toBe(201);
    const inv = await invoice({ contactEmail: 'peppol@client.test', clientId: buyer.body.id });
    worker = startEventWorker(server.orm, createLogger('silent'), settingsWith(smtp.url));
    const res = await a.client.post(`/invoices/${inv.id}/send`, {});
    expect(res.status).toBe(200);
    const [mail] = await waitFor(
      () => smtp.to('peppol@client.test').length > 0 && smtp.to('peppol@client.test'),
    );
    expect(mail.parsed.attachments.map((f) => f.filename)).toEqual([
      `invoice-${inv.invoiceNumber}.pdf`,
      `invoice-${inv.invoiceNumber}-ubl.xml`,
    ]);
    const structured = mail.parsed.attachments[1];
    expect(structured.contentType).toBe('application/xml');
    const doc = xml.parse(structured.content.toString('utf8')).Invoice;
    expect(doc.ID).toBe(inv.invoiceNumber);
    expect(doc.AccountingSupplierParty.Party.PartyTaxScheme.CompanyID).toBe('NL123456789B01');

    // CII the same way, by the tenant's choice.
    await a.client.patch('/tenant', { settings: { eInvoiceFormat: 'cii' } });
    const again = await a.client.post(`/invoices/${inv.id}/send`, { recipients: ['cii@client.test'] });
    expect(again.status).toBe(200);
    const [cii] = await waitFor(() => smtp.to('cii@client.test').length > 0 && smtp.to('cii@client.test'));
    const ciiFile = cii.parsed.attachments.find((f) => f.filename === `invoice-${inv.invoiceNumber}-cii.xml`);
    const ciiDoc = xml.parse(ciiFile!.content.toString('utf8')).CrossIndustryInvoice;
    expect(ciiDoc.ExchangedDocument.ID).toBe(inv.invoiceNumber);
    await a.client.patch('/tenant', { settings: {} });
  });

  it('without SMTP_URL the message is kept as an .eml file under DATA_DIR, and `bms mail` lists it', async () => {
    const inv = await invoice({ contactEmail: 'kept@client.test' });
    const outbox = path.join(mailDir, 'outbox-mail');
    worker = startEventWorker(server.orm, createLogger('silent'), settingsWith(undefined, outbox));
    expect((await a.client.post(`/invoices/${inv.id}/send`, {})).status).toBe(200);
    // The directory is made before the file is written: wait for the file itself.
    const files = await waitFor(() => {
      const emls = fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((f) => f.endsWith('.eml')) : [];
      return emls.length > 0 && emls;
    });
    expect(files).toHaveLength(1);
    const eml = fs.readFileSync(path.join(outbox, files[0]), 'utf8');
    expect(eml).toContain('To: kept@client.test');
    expect(eml).toContain(`invoice-${inv.invoiceNumber}.pdf`);

    const cli = cliCommands(() => ({ DATA_DIR: mailDir, NODE_ENV: 'test' }));
    const listed = await cli.ok('mail');
    expect(listed).toEqual([
      {
        file: path.join(outbox, files[0]),
        date: expect.stringMatching(/^\d{4}-/),
        to: 'kept@client.test',
        subject: expect.stringContaining(inv.invoiceNumber),
        attachments: [`invoice-${inv.invoiceNumber}.pdf`],
      },
    ]);
    expect(smtp.to('kept@client.test')).toHaveLength(0);
  });
});
