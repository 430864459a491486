import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  type PDFRawStream,
  type PDFString,
} from '@cantoo/pdf-lib';
import { XMLParser } from 'fast-xml-parser';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody } from '../support/http';
import { en16931Failures, compiledStylesheet } from '../support/en16931';

/**
 * E-invoices of sales invoices (UBL for Peppol, CII, Factur-X) checked against the official EN 16931
 * schematron, and purchase invoices imported from e-invoices.
 */
describe('e-invoices', () => {
  let server: TestServer;
  let a: TestTenant;
  let dutchBuyer: string;
  let germanBuyer: string;

  const seller = {
    vatNumber: 'NL123456789B01',
    email: 'billing@seller.example',
    iban: 'NL91ABNA0417164300',
    cocNumber: '12345678',
    address: { street: 'Main', houseNumber: '1', postalCode: '3511 AA', city: 'Utrecht', country: 'NL' },
  };

  async function customer(body: Record<string, unknown>): Promise<string> {
    const res = await a.client.post('/customers', body);
    expect(res.status).toBe(201);
    return res.body.id;
  }

  async function invoice(body: Record<string, unknown>): Promise<any> {
    const res = await a.client.post('/invoices', { invoiceDate: '2026-03-10T10:00:00.000Z', ...body });
    expect(res.status).toBe(201);
    return res.body;
  }

  async function eInvoice(id: string, format: string) {
    const res = await fetch(`${server.baseUrl}/api/v1/invoices/${id}/e-invoice?format=${format}`, {
      headers: { authorization: `Bearer ${a.token}` },
    });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  /**
   * An XML body straight to the import: the test client checks each exchange against the OpenAPI
   * document with a JSON validator, which cannot read an XML body.
   */
  async function importXml(body: string) {
    const res = await fetch(`${server.baseUrl}/api/v1/ap-invoices/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/xml' },
      body,
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: JSON.parse(text), text };
  }

  const fatal = async (xml: string, syntax: 'UBL' | 'CII') =>
    (await en16931Failures(xml, syntax)).filter((f) => f.flag === 'fatal');

  const xml = new XMLParser({ removeNSPrefix: true, ignoreAttributes: false, parseTagValue: false });

  beforeAll(async () => {
    // Compiling the schematron takes half a minute of CPU the first time on a machine.
    compiledStylesheet('UBL');
    compiledStylesheet('CII');
    server = await startServer();
    a = await server.tenant('Seller B.V.');
    const tenant = await a.client.patch('/tenant', { billingInfo: seller });
    expect(tenant.status).toBe(200);
    dutchBuyer = await customer({
      name: 'Dutch Buyer B.V.',
      email: 'ap@buyer.example',
      street: 'Kade 2',
      postalCode: '1011 AB',
      city: 'Amsterdam',
      country: 'NL',
      vatNumber: 'NL987654321B01',
    });
    germanBuyer = await customer({
      name: 'German Buyer GmbH',
      email: 'ap@buyer.example',
      street: 'Allee 3',
      postalCode: '10115',
      city: 'Berlin',
      country: 'DE',
      vatNumber: 'DE123456789',
    });
  }, 600_000);
  afterAll(() => server?.close());

  test('customers keep an address, a country and a VAT number, over REST; a bad country or VAT number is a 400', async () => {
    const found = await a.client.get(`/customers/find/${germanBuyer}`);
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({
      street: 'Allee 3',
      postalCode: '10115',
      city: 'Berlin',
      country: 'DE',
      vatNumber: 'DE123456789',
    });
    const bad = await a.client.post('/customers', { name: 'X', country: 'Germany', vatNumber: '123' });
    expectErrorBody(bad, 400);
    expect(bad.body.detail).toContain('country');
    expect(bad.body.detail).toContain('vatNumber');
    const changed = await a.client.patch(`/customers/${dutchBuyer}`, { city: 'Rotterdam' });
    expect(changed.status).toBe(200);
    expect(changed.body.city).toBe('Rotterdam');
    await a.client.patch(`/customers/${dutchBuyer}`, { city: 'Amsterdam' });
  });

  test('a domestic invoice at two rates is a valid UBL (Peppol BIS 3.0) and CII e-invoice', async () => {
    const inv = await invoice({
      clientId: dutchBuyer,
      paymentReference: 'RF18 5390 0754 7034',
      rows: [
        { description: 'Oak planks', quantity: 3, unitPrice: 19.99, taxRate: 21 },
        { description: 'Fitting hours', quantity: 2.5, quantityType: 'HOURS', unitPrice: 80, taxRate: 9 },
        { description: 'Loyalty discount', type: 'DISCOUNT', quantity: 1, unitPrice: 10, taxRate: 21 },
        { description: 'Delivered on site', type: 'TEXT' },
      ],
    });
    expect(inv.totalTax).toBeGreaterThan(0);

    const ubl = await eInvoice(inv.id, 'ubl');
    expect(ubl.status).toBe(200);
    expect(ubl.headers.get('content-type')).toContain('application/xml');
    expect(ubl.headers.get('content-disposition')).toBe(
      `attachment; filename="invoice-${inv.invoiceNumber}-ubl.xml"`,
    );
    const ublText = ubl.bytes.toString('utf8');
    expect(await fatal(ublText, 'UBL')).toEqual([]);
    const doc = xml.parse(ublText).Invoice;
    expect(doc.CustomizationID).toBe(
      'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
    );
    expect(doc.ID).toBe(inv.invoiceNumber);
    expect(doc.AccountingCustomerParty.Party.PartyTaxScheme.CompanyID).toBe('NL987654321B01');
    expect(doc.LegalMonetaryTotal.TaxInclusiveAmount['#text']).toBe(inv.totalWithTax.toFixed(2));
    const rates = [doc.TaxTotal.TaxSubtotal].flat().map((s: any) => s.TaxCategory.Percent);
    expect(rates.sort()).toEqual(['21', '9']);

    const cii = await eInvoice(inv.id, 'cii');
    expect(cii.status).toBe(200);
    expect(await fatal(cii.bytes.toString('utf8'), 'CII')).toEqual([]);
    expect(xml.parse(cii.bytes.toString('utf8')).CrossIndustryInvoice).toBeDefined();
  });

  test('the validator does catch a broken document', async () => {
    const inv = await invoice({ clientId: dutchBuyer, rows: [{ quantity: 1, unitPrice: 100, taxRate: 21 }] });
    const text = (await eInvoice(inv.id, 'ubl')).bytes.toString('utf8');
    // Totals that do not add up break BR-CO-15 (total with VAT = total without VAT + VAT).
    const broken = text.replace(
      /<cbc:TaxInclusiveAmount currencyID="EUR">121.00</,
      '<cbc:TaxInclusiveAmount currencyID="EUR">999.00<',
    );
    expect(broken).not.toBe(text);
    expect((await fatal(broken, 'UBL')).map((f) => f.id)).toContain('BR-CO-15');
  });

  test('a B2B sale to another EU country is reverse-charged: no VAT, category AE, and valid', async () => {
    const inv = await invoice({
      clientId: germanBuyer,
      rows: [{ description: 'Consulting', quantity: 10, unitPrice: 100, taxRate: 21 }],
    });
    expect([inv.totalExcludingTax, inv.totalTax, inv.totalWithTax]).toEqual([1000, 0, 1000]);
    expect(inv.rows[0].taxRate).toBe(0);
    const ubl = (await eInvoice(inv.id, 'ubl')).bytes.toString('utf8');
    expect(await fatal(ubl, 'UBL')).toEqual([]);
    const subtotal = [xml.parse(ubl).Invoice.TaxTotal.TaxSubtotal].flat()[0];
    expect(subtotal.TaxCategory.ID).toBe('AE');
    expect(subtotal.TaxCategory.TaxExemptionReasonCode).toBe('VATEX-EU-AE');
    expect(await fatal((await eInvoice(inv.id, 'cii')).bytes.toString('utf8'), 'CII')).toEqual([]);
  });

  test('a credit note refers to the invoice it corrects (BillingReference) and is valid', async () => {
    const original = await invoice({
      clientId: dutchBuyer,
      rows: [{ quantity: 2, unitPrice: 50, taxRate: 21 }],
    });
    const credit = await invoice({
      type: 'CREDIT_NOTE',
      clientId: dutchBuyer,
      creditedInvoiceId: original.id,
      rows: [{ description: 'Returned', quantity: 1, unitPrice: 50, taxRate: 21 }],
    });
    expect(credit.creditedInvoiceId).toBe(original.id);
    expect(credit.totalWithTax).toBe(-60.5);
    const ubl = (await eInvoice(credit.id, 'ubl')).bytes.toString('utf8');
    expect(await fatal(ubl, 'UBL')).toEqual([]);
    const doc = xml.parse(ubl).CreditNote;
    expect(doc.CreditNoteTypeCode).toBe('381');
    expect(doc.BillingReference.InvoiceDocumentReference.ID).toBe(original.invoiceNumber);
    expect(doc.LegalMonetaryTotal.PayableAmount['#text']).toBe('60.50');
    const cii = (await eInvoice(credit.id, 'cii')).bytes.toString('utf8');
    expect(await fatal(cii, 'CII')).toEqual([]);
    expect(
      xml.parse(cii).CrossIndustryInvoice.SupplyChainTradeTransaction.ApplicableHeaderTradeSettlement
        .InvoiceReferencedDocument.IssuerAssignedID,
    ).toBe(original.invoiceNumber);

    // Only a credit note names the invoice it corrects, and that invoice must exist.
    const plain = await a.client.post('/invoices', { creditedInvoiceId: original.id, rows: [] });
    expectErrorBody(plain, 400);
    expect(plain.body.detail).toContain('creditedInvoiceId');
    const unknown = await a.client.post('/invoices', {
      type: 'CREDIT_NOTE',
      creditedInvoiceId: '6a1e7d1c-3b0b-4a7e-9d6f-0000000000aa',
    });
    expectErrorBody(unknown, 400);
    expect(unknown.body.detail).toContain('creditedInvoiceId');
  });

  /** The `factur-x.xml` a PDF embeds, read back with pdf-lib. */
  async function embeddedXml(pdf: Buffer): Promise<string> {
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    const names = doc.catalog
      .lookup(PDFName.of('Names'), PDFDict)
      .lookup(PDFName.of('EmbeddedFiles'), PDFDict)
      .lookup(PDFName.of('Names'), PDFArray);
    for (let i = 0; i + 1 < names.size(); i += 2) {
      if ((names.lookup(i) as PDFString).decodeText() !== 'factur-x.xml') continue;
      const file = names
        .lookup(i + 1, PDFDict)
        .lookup(PDFName.of('EF'), PDFDict)
        .lookup(PDFName.of('F'));
      return Buffer.from(decodePDFRawStream(file as PDFRawStream).decode()).toString('utf8');
    }
    throw new Error('no factur-x.xml in the PDF');
  }

  test("Factur-X is a PDF/A-3 with a valid CII embedded; a credit note's names the invoice it corrects", async () => {
    const inv = await invoice({ clientId: dutchBuyer, rows: [{ quantity: 1, unitPrice: 100, taxRate: 21 }] });
    const res = await eInvoice(inv.id, 'facturx');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const pdf = res.bytes.toString('latin1');
    expect(pdf.startsWith('%PDF-')).toBe(true);
    expect(pdf).toContain('factur-x.xml');
    expect(pdf).toMatch(/pdfaid:part[^0-9]*3/);
    expect(await fatal(await embeddedXml(res.bytes), 'CII')).toEqual([]);

    const credit = await invoice({
      type: 'CREDIT_NOTE',
      clientId: dutchBuyer,
      creditedInvoiceId: inv.id,
      rows: [{ description: 'Returned', quantity: 1, unitPrice: 40, taxRate: 21 }],
    });
    const creditPdf = await eInvoice(credit.id, 'facturx');
    expect(creditPdf.status).toBe(200);
    expect(creditPdf.bytes.toString('latin1')).toMatch(/pdfaid:part[^0-9]*3/);
    const embedded = await embeddedXml(creditPdf.bytes);
    expect(await fatal(embedded, 'CII')).toEqual([]);
    // The same document the CII format answers, preceding invoice included.
    expect(embedded).toBe((await eInvoice(credit.id, 'cii')).bytes.toString('utf8'));
    expect(
      xml.parse(embedded).CrossIndustryInvoice.SupplyChainTradeTransaction.ApplicableHeaderTradeSettlement
        .InvoiceReferencedDocument.IssuerAssignedID,
    ).toBe(inv.invoiceNumber);
  });

  test('an e-invoice needs the seller and buyer details: a 409 naming each missing field; a bad format is a 400', async () => {
    const bare = await customer({ name: 'No Address Ltd' });
    const inv = await invoice({ clientId: bare, rows: [{ quantity: 1, unitPrice: 10 }] });
    const res = await a.client.get(`/invoices/${inv.id}/e-invoice?format=ubl`);
    expectErrorBody(res, 409);
    expect(res.body.errors.map((e: any) => e.field)).toEqual(['customer.country', 'customer.email']);
    const noClient = await invoice({ rows: [{ quantity: 1, unitPrice: 10 }] });
    const none = await a.client.get(`/invoices/${noClient.id}/e-invoice?format=cii`);
    expectErrorBody(none, 409);
    expect(none.body.errors.map((e: any) => e.field)).toEqual(['clientId']);
    const format = await a.client.get(`/invoices/${inv.id}/e-invoice?format=pdf`);
    expectErrorBody(format, 400);
    expect(format.body.detail).toContain('format');
    const unknown = await a.client.get(`/invoices/6a1e7d1c-3b0b-4a7e-9d6f-0000000000aa/e-invoice`);
    expectErrorBody(unknown, 404);

    // Another tenant's invoice is as absent as an unknown one.
    const b = await server.tenant('Other');
    expect((await b.client.get(`/invoices/${inv.id}/e-invoice`)).status).toBe(404);
  });

  test('an incoming UBL or CII e-invoice becomes an AP invoice; a broken one is a 400 naming the problem', async () => {
    const inv = await invoice({
      clientId: dutchBuyer,
      rows: [
        { description: 'Oak planks', quantity: 3, unitPrice: 19.99, taxRate: 21 },
        { description: 'Fitting hours', quantity: 2.5, unitPrice: 80, taxRate: 9 },
      ],
    });
    const ubl = (await eInvoice(inv.id, 'ubl')).bytes.toString('utf8');
    const imported = await importXml(ubl);
    expect(imported.status).toBe(201);
    expect(imported.headers.get('location')).toBe(`/api/v1/ap-invoices/find/${imported.body.id}`);
    expect(imported.body).toMatchObject({
      invoiceNumber: inv.invoiceNumber,
      supplierName: expect.stringMatching(/^Seller B\.V\./),
      supplierEmail: 'billing@seller.example',
      currency: 'EUR',
    });
    expect(imported.body.rows.map((r: any) => [r.description, r.quantity, r.unitPrice, r.taxRate])).toEqual([
      ['Oak planks', 3, 19.99, 21],
      ['Fitting hours', 2.5, 80, 9],
    ]);
    expect(imported.body.totalAmount).toBe(inv.totalWithTax);

    const cii = (await eInvoice(inv.id, 'cii')).bytes.toString('utf8');
    // The same document as a JSON string, for clients that only send JSON.
    const fromCii = await a.client.post('/ap-invoices/import', cii);
    expect(fromCii.status).toBe(201);
    expect(fromCii.body.rows).toHaveLength(2);

    const notXml = await importXml('<Invoice><cbc:ID>');
    expectErrorBody(notXml, 400);
    expect(notXml.body.detail).toContain('not well-formed XML');
    const wrongRoot = await importXml('<Order/>');
    expectErrorBody(wrongRoot, 400);
    expect(wrongRoot.body.detail).toContain('root element is Order');
    const noNumber = ubl.replace(/<cbc:ID>[^<]*<\/cbc:ID>/, '');
    const missing = await importXml(noNumber);
    expectErrorBody(missing, 400);
    expect(missing.body.detail).toContain('invoice number (BT-1)');
  });
});
