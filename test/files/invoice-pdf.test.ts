import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeWithTool } from '../support/debian-tools';
import { storedFile } from '../support/files';
import { createCustomer } from '../finance/helpers';
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

  beforeAll(async () => {
    server = await startServer({ files: localSettings(dir) });
    a = await server.tenant('Pdf Works');
  });
  afterAll(async () => {
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
            address: { street: 'Main', houseNumber: '1', city: 'Utrecht' },
          },
        },
      },
    );
    expect(tenant.errors).toBeUndefined();
    const customer = await createCustomer(a.client, 'Globex Corporation');
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
    const invoice = created.body;
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
    expect(text).toContain('Bill to: Globex Corporation');
    expect(text).toMatch(/Oak planks\s+3\s+EUR 19\.99\s+21%\s+EUR 12\.59\s+EUR 59\.97/);
    expect(text).toMatch(/Fitting hours\s+2\.5\s+EUR 80\.00\s+9%\s+EUR 18\.00\s+EUR 200\.00/);
    expect(text).toMatch(/Subtotal\s+EUR 259\.97/);
    expect(text).toMatch(/Tax\s+EUR 30\.59/);
    expect(text).toMatch(/Total\s+EUR 290\.56/);
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
    const changed = { body: update.data.updateInvoice };
    expect(changed.body.pdf.blobId).not.toBe(invoice.pdf.blobId);
    // The old rendering is deleted with the change; the new one holds the new rows and totals.
    expect((await download(server, a.token, `/api/v1/files/${invoice.pdf.blobId}`)).status).toBe(404);
    const again = pdfText(
      (await download(server, a.token, `/api/v1/files/${changed.body.pdf.blobId}`)).bytes,
    );
    expect(again).toMatch(/Oak planks\s+5\s+EUR 19\.99\s+21%\s+EUR 20\.99\s+EUR 99\.95/);
    expect(again).not.toContain('Fitting hours');
    expect(again).toMatch(/Total\s+EUR 120\.94/);
  });
});
