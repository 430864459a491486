import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeInvoicePdfs, startInvoicePdfs } from '../../src/domain/finance/invoice-pdf-queue';
import type { Periodic } from '../../src/jobs/periodic';
import { createLogger } from '../../src/logger';
import { idleTransactions } from '../support/database';
import { describeWithTool } from '../support/debian-tools';
import { heldStore, storedFile, storeWithPut } from '../support/files';
import {
  download,
  graphql,
  localSettings,
  startServer,
  type TestServer,
  type TestTenant,
} from './file-suite';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bms-files-pdf-'));

/** The text of a PDF as Debian's poppler-utils reads it (pdftotext, layout kept). */
function pdfText(pdf: Buffer): string {
  const file = path.join(dir, `read-${Date.now()}.pdf`);
  fs.writeFileSync(file, pdf);
  try {
    return execFileSync('/usr/bin/pdftotext', ['-layout', file, '-']).toString();
  } finally {
    fs.rmSync(file);
  }
}

describeWithTool(
  '/usr/bin/pdftotext',
  'poppler-utils',
  'invoice PDF test',
)("a sales invoice's PDF", () => {
  let server: TestServer;
  let a: TestTenant;
  /** The PDF worker, as every service process runs one (src/serve.ts starts the modules' jobs). */
  let pdfs: Periodic | undefined;
  const startPdfs = () =>
    startInvoicePdfs(server.orm, server.app.files, createLogger('silent'), { firstMs: 50, maxMs: 200 });

  /** The invoice as read now: its `pdf` is null until the worker has made it. */
  const read = async (id: string) => (await a.client.get(`/invoices/find/${id}`)).body;
  /** The invoice once its PDF is made: read again until it has one, within 20 s. */
  async function withPdf(id: string): Promise<any> {
    const end = Date.now() + 20_000;
    for (;;) {
      const invoice = await read(id);
      if (invoice.pdf || Date.now() > end) return invoice;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  /** The rows of the PDF queue for an invoice, read as the database's owner. */
  const queued = async (id: string) =>
    server.orm.em
      .getConnection()
      .execute(`select attempts, claim from invoice_pdf_due where invoice_id = ?`, [id]);

  beforeAll(async () => {
    server = await startServer({ files: localSettings(dir) });
    a = await server.tenant('Pdf Works');
    pdfs = startPdfs();
  });
  afterAll(async () => {
    await pdfs?.stop();
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('is rendered with billing details, rows, taxes and totals, and rendered again when the invoice changes', async () => {
    const { image: logo } = await storedFile(server.baseUrl, a, { width: 120, height: 40 });
    const tenant = await graphql(
      server,
      a.token,
      `
        mutation ($i: UpdateTenantInput!) {
          updateTenant(input: $i) {
            id
          }
        }
      `,
      {
        i: {
          logo: { blobId: logo.blobId },
          billingInfo: {
            iban: 'NL91ABNA0417164300',
            vatNumber: 'NL123456789B01',
            address: {
              street: 'Main',
              houseNumber: '1',
              postalCode: '3511 AA',
              city: 'Utrecht',
              country: 'NL',
            },
          },
        },
      },
    );
    expect(tenant.errors).toBeUndefined();
    const created0 = await a.client.post('/customers', {
      name: 'Globex Corporation',
      street: 'Kade 2',
      postalCode: '1011 AB',
      city: 'Amsterdam',
      country: 'NL',
      vatNumber: 'NL987654321B01',
    });
    expect(created0.status).toBe(201);
    const customer = created0.body.id as string;
    const created = await a.client.post('/invoices', {
      currency: 'EUR',
      clientId: customer,
      invoiceDate: '2026-03-10T10:00:00.000Z',
      paymentTermDays: 14,
      rows: [
        { description: 'Oak planks', quantity: 3, unitPrice: 19.99, taxRate: 21, type: 'ITEM' },
        { description: 'Fitting hours', quantity: 2.5, unitPrice: 80, taxRate: 9, type: 'ITEM' },
      ],
    });
    expect(created.status).toBe(201);
    // The create answers without rendering: the PDF is made after it commits.
    expect(created.body.pdf).toBeNull();
    const invoice = await withPdf(created.body.id);
    expect(invoice.pdf).toMatchObject({ name: `invoice-${invoice.invoiceNumber}.pdf`, type: 'DOCUMENT' });

    const pdf = await download(server, a.token, `/api/v1/files/${invoice.pdf.blobId}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.bytes.length).toBe(invoice.pdf.fileSize);
    const text = pdfText(pdf.bytes);
    expect(text).toContain(`Invoice ${invoice.invoiceNumber}`);
    expect(text).toContain('Pdf Works');
    expect(text).toContain('IBAN NL91ABNA0417164300');
    expect(text).toContain('VAT NL123456789B01');
    // The seller's and the buyer's names, addresses and VAT numbers.
    expect(text).toContain('Main 1');
    expect(text).toContain('3511 AA Utrecht');
    expect(text).toContain('Bill to: Globex Corporation');
    expect(text).toContain('Kade 2');
    expect(text).toContain('1011 AB Amsterdam');
    expect(text).toContain('VAT NL987654321B01');
    expect(text).toContain('Supply date: 2026-03-10');
    expect(text).toMatch(/VAT %\s+VAT\s+Total excl\. VAT/);
    expect(text).toMatch(/Oak planks\s+3\s+EUR 19\.99\s+21%\s+EUR 12\.59\s+EUR 59\.97/);
    expect(text).toMatch(/Fitting hours\s+2\.5\s+EUR 80\.00\s+9%\s+EUR 18\.00\s+EUR 200\.00/);
    // The VAT per rate: taxable amount, rate, tax.
    expect(text).toMatch(/EUR 59\.97\s+21%\s+EUR 12\.59/);
    expect(text).toMatch(/EUR 200\.00\s+9%\s+EUR 18\.00/);
    expect(text).toMatch(/Total excl\. VAT\s+EUR 259\.97/);
    expect(text).toMatch(/VAT\s+EUR 30\.59/);
    expect(text).toMatch(/Total incl\. VAT\s+EUR 290\.56/);
    expect(text).not.toContain('Reverse charge');
    expect([invoice.totalExcludingTax, invoice.totalTax, invoice.totalWithTax]).toEqual([
      259.97, 30.59, 290.56,
    ]);

    const update = await graphql(
      server,
      a.token,
      `
        mutation ($id: ID!, $i: InvoiceInput!) {
          updateInvoice(id: $id, input: $i) {
            pdf {
              blobId
            }
          }
        }
      `,
      {
        id: invoice.id,
        i: {
          rows: [{ description: 'Oak planks', quantity: 5, unitPrice: 19.99, taxRate: 21, type: 'ITEM' }],
        },
      },
    );
    expect(update.errors).toBeUndefined();
    // The old rendering is deleted with the change, and the invoice has none until the new one
    // is made; it holds the new rows and totals.
    expect(update.data.updateInvoice.pdf).toBeNull();
    expect((await download(server, a.token, `/api/v1/files/${invoice.pdf.blobId}`)).status).toBe(404);
    const changed = { body: await withPdf(invoice.id) };
    expect(changed.body.pdf.blobId).not.toBe(invoice.pdf.blobId);
    const again = pdfText(
      (await download(server, a.token, `/api/v1/files/${changed.body.pdf.blobId}`)).bytes,
    );
    expect(again).toMatch(/Oak planks\s+5\s+EUR 19\.99\s+21%\s+EUR 20\.99\s+EUR 99\.95/);
    expect(again).not.toContain('Fitting hours');
    expect(again).toMatch(/Total incl\. VAT\s+EUR 120\.94/);
  });

  test('a reverse-charged sale says so and charges no VAT; a credit note names the invoice it corrects', async () => {
    const buyer = await a.client.post('/customers', {
      name: 'Berlin GmbH',
      street: 'Allee 3',
      postalCode: '10115',
      city: 'Berlin',
      country: 'DE',
      vatNumber: 'DE123456789',
    });
    const sale = await a.client.post('/invoices', {
      clientId: buyer.body.id,
      invoiceDate: '2026-03-11T10:00:00.000Z',
      rows: [{ description: 'Consulting', quantity: 2, unitPrice: 100, taxRate: 21 }],
    });
    expect(sale.status).toBe(201);
    sale.body = await withPdf(sale.body.id);
    const text = pdfText((await download(server, a.token, `/api/v1/files/${sale.body.pdf.blobId}`)).bytes);
    expect(text).toContain('Reverse charge: VAT to be accounted for by the recipient');
    expect(text).toMatch(/EUR 200\.00\s+0%\s+EUR 0\.00/);
    expect(text).toMatch(/Total incl\. VAT\s+EUR 200\.00/);

    const credit = await a.client.post('/invoices', {
      type: 'CREDIT_NOTE',
      clientId: buyer.body.id,
      creditedInvoiceId: sale.body.id,
      invoiceDate: '2026-03-12T10:00:00.000Z',
      rows: [{ description: 'Consulting', quantity: 1, unitPrice: 100 }],
    });
    expect(credit.status).toBe(201);
    credit.body = await withPdf(credit.body.id);
    const note = pdfText((await download(server, a.token, `/api/v1/files/${credit.body.pdf.blobId}`)).bytes);
    expect(note).toContain(`Credit note ${credit.body.invoiceNumber}`);
    expect(note).toContain(`Corrects invoice ${sale.body.invoiceNumber} of 2026-03-11`);
  });

  test('is work recorded with the invoice: a process that stops before making it leaves it to the next one; a change the PDF does not show keeps it', async () => {
    await pdfs?.stop();
    pdfs = undefined;
    const created = await a.client.post('/invoices', {
      invoiceDate: '2026-04-01T10:00:00.000Z',
      rows: [{ description: 'Walnut veneer', quantity: 4, unitPrice: 12.5, taxRate: 21 }],
    });
    expect(created.status).toBe(201);
    expect(created.body.pdf).toBeNull();
    // Committed with the invoice, before anything rendered it; no process is making it.
    expect(await queued(created.body.id)).toEqual([{ attempts: 0, claim: null }]);
    await new Promise((r) => setTimeout(r, 300));
    expect((await read(created.body.id)).pdf).toBeNull();
    // A refused create leaves no work behind: the row commits or rolls back with the invoice.
    const before = await server.orm.em
      .getConnection()
      .execute(`select count(*)::int as n from invoice_pdf_due`);
    const refused = await a.client.post('/invoices', { clientId: created.body.id, rows: [] });
    expect(refused.status).toBe(400);
    expect(
      await server.orm.em.getConnection().execute(`select count(*)::int as n from invoice_pdf_due`),
    ).toEqual(before);

    // The next process to run the worker makes it, and the work is gone.
    pdfs = startPdfs();
    const made = await withPdf(created.body.id);
    expect(made.pdf).toMatchObject({ name: `invoice-${made.invoiceNumber}.pdf`, type: 'DOCUMENT' });
    expect(await queued(created.body.id)).toEqual([]);
    // Receivers hear of it: one invoice.pdf_made, the invoice with its PDF, and no edit besides.
    const events = (await server.orm.em
      .getConnection()
      .execute(`select type, data from outbox_event where resource_id = ? order by occurred_at`, [
        created.body.id,
      ])) as { type: string; data: { pdf: unknown; invoiceNumber: string } }[];
    expect(events.map((e) => e.type).sort()).toEqual([
      'invoice.created',
      'invoice.numbered',
      'invoice.pdf_made',
    ]);
    expect(events.find((e) => e.type === 'invoice.pdf_made')!.data).toMatchObject({
      pdf: made.pdf,
      invoiceNumber: made.invoiceNumber,
    });
    // No edit: the version a client read before the PDF arrived is still the invoice's, so a
    // change based on it is no conflict (the version is GraphQL's; REST does not show it).
    const versionOf = async () =>
      (
        await graphql(
          server,
          a.token,
          `
            query ($id: ID!) {
              invoice(id: $id) {
                version
              }
            }
          `,
          { id: made.id },
        )
      ).data.invoice.version;
    expect(await versionOf()).toBe(1);
    const noted = await graphql(
      server,
      a.token,
      `
        mutation ($id: ID!, $i: InvoiceInput!) {
          updateInvoice(id: $id, expectedVersion: 1, input: $i) {
            version
          }
        }
      `,
      { id: made.id, i: { status: 'SENT' } },
    );
    expect(noted.errors).toBeUndefined();
    expect(noted.data.updateInvoice.version).toBe(2);
    const text = pdfText((await download(server, a.token, `/api/v1/files/${made.pdf.blobId}`)).bytes);
    expect(text).toContain(`Invoice ${made.invoiceNumber}`);
    expect(text).toMatch(/Walnut veneer\s+4\s+EUR 12\.50\s+21%\s+EUR 10\.50\s+EUR 50\.00/);

    // The status is not printed: that change kept the PDF (sent past its due date, it reads OVERDUE).
    const sent = await a.client.get(`/invoices/find/${made.id}`);
    expect(sent.body).toMatchObject({ status: 'OVERDUE', pdf: made.pdf });
    // A client cannot set the PDF: the service's rendering stays.
    const { image } = await storedFile(server.baseUrl, a, { width: 20, height: 20 });
    const forged = await a.client.patch(`/invoices/${made.id}`, { pdf: { blobId: image.blobId } });
    expect(forged.status).toBe(200);
    expect(forged.body.pdf).toEqual(made.pdf);
  });

  test('is drawn and stored outside any transaction: while its bytes are written nothing is held, and a change meanwhile has it drawn anew', async () => {
    await pdfs?.stop();
    pdfs = undefined;
    // The store as an object store slow to answer: each write waits until the test lets it on.
    const store = server.app.files;
    const held = heldStore(store);
    const created = await a.client.post('/invoices', {
      invoiceDate: '2026-05-01T10:00:00.000Z',
      rows: [{ description: 'Beech dowels', quantity: 2, unitPrice: 3, taxRate: 21 }],
    });
    expect(created.status).toBe(201);
    pdfs = startInvoicePdfs(server.orm, held.store, createLogger('silent'), {
      firstMs: 50,
      maxMs: 200,
    });
    try {
      await held.writing;
      expect(await idleTransactions(server.orm)).toBe(0);
      // The invoice is not locked meanwhile (on the embedded database, a held transaction would
      // keep this request waiting for its one connection): a change is answered at once.
      const changing = a.client.patch(`/invoices/${created.body.id}`, {
        rows: [{ description: 'Ash dowels', quantity: 2, unitPrice: 3, taxRate: 21 }],
      });
      const answer = await Promise.race([
        changing,
        new Promise((r) => setTimeout(() => r('waiting'), 5_000)),
      ]);
      expect(answer).toMatchObject({ status: 200 });
    } finally {
      held.letThrough();
    }
    // The bytes drawn before the change are of the invoice as it was: removed, and drawn anew.
    const made = await withPdf(created.body.id);
    expect(made.pdf).toMatchObject({ type: 'DOCUMENT' });
    expect(held.puts.length).toBeGreaterThanOrEqual(2);
    expect(await store.backend.size(held.puts[0])).toBeNull();
    expect(held.puts[0]).not.toContain(made.pdf.blobId);
    const text = pdfText((await download(server, a.token, `/api/v1/files/${made.pdf.blobId}`)).bytes);
    expect(text).toContain('Ash dowels');
    expect(text).not.toContain('Beech dowels');
    expect(await queued(created.body.id)).toEqual([]);
  });

  test('is made a tenant batch at a time: one whose bytes cannot be written is tried again later, the others are made', async () => {
    await pdfs?.stop();
    pdfs = undefined;
    const ids: string[] = [];
    for (const description of ['Maple', 'Cherry', 'Elm']) {
      const created = await a.client.post('/invoices', {
        invoiceDate: '2026-06-01T10:00:00.000Z',
        rows: [{ description, quantity: 1, unitPrice: 10, taxRate: 21 }],
      });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    let failures = 1;
    const flaky = storeWithPut(server.app.files, async (key, body, type, own) => {
      if (failures-- > 0) throw new Error('the object store did not answer');
      await own(key, body, type);
    });
    await makeInvoicePdfs(server.orm, flaky, createLogger('silent'));
    const invoices = await Promise.all(ids.map(read));
    const made = invoices.filter((invoice) => invoice.pdf);
    expect(made).toHaveLength(2);
    for (const invoice of made) expect(await queued(invoice.id)).toEqual([]);
    // Counted a try, released, and due again later (not at once: it would fail the same way).
    const failed = invoices.find((invoice) => !invoice.pdf);
    expect(await queued(failed.id)).toEqual([{ attempts: 1, claim: null }]);
    const [due] = await server.orm.em
      .getConnection()
      .execute(`select due > now() as later from invoice_pdf_due where invoice_id = ?`, [failed.id]);
    expect(due.later).toBe(true);
  });
});
