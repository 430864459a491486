import { parentPort, workerData } from 'node:worker_threads';

/**
 * What an invoice's PDF shows, as plain values: the text of each line and cell, worked out from
 * the records by `invoicePdfLayout` (invoice-pdf.ts). It crosses to the rendering thread
 * (invoice-pdf-threads.ts) by structured clone, so it holds no record, only strings and a date.
 */
export interface InvoicePdfLayout {
  /** The document's title in its metadata. */
  title: string;
  /** The metadata's creation date: fixed, so the same invoice is the same bytes. */
  creationDate: Date;
  sellerName: string;
  /** Under the seller's name; none empty. */
  sellerLines: string[];
  heading: string;
  dates: string;
  corrects: string | null;
  /** The buyer's block, its first line the name; null without a customer. */
  buyerLines: string[] | null;
  paymentReference: string | null;
  rows: string[][];
  vatLines: string[][];
  totals: string[][];
  /** Paragraphs at the end (the reverse-charge note, the invoice's note), each after a gap. */
  notes: string[];
}

/** The value of `workerData` that makes this module, loaded in a thread, serve renderings. */
export const PDF_THREAD = 'invoice-pdf-drawing';

/**
 * Draws the invoice's PDF (pdfkit, with its built-in Helvetica), with the logo where pdfkit can
 * draw it: only pdfkit's work, which takes the CPU of many requests, so it runs in a thread.
 */
export async function drawInvoicePdf(layout: InvoicePdfLayout, logo: Buffer | null): Promise<Buffer> {
  // Loaded on the first invoice drawn, not at start-up: pdfkit is one large module.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: layout.title, CreationDate: layout.creationDate },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  if (logo) {
    // pdfkit draws JPEG and PNG; a logo of another type is left out rather than failing the invoice.
    try {
      doc.image(logo, 445, 40, { fit: [100, 50] });
    } catch {
      /* not a JPEG or PNG */
    }
  }
  doc.fontSize(18).text(layout.sellerName, 50, 50);
  doc.fontSize(9);
  for (const line of layout.sellerLines) doc.text(line);
  doc.moveDown();
  doc.fontSize(14).text(layout.heading);
  doc.fontSize(10);
  doc.text(layout.dates);
  if (layout.corrects) doc.text(layout.corrects);
  if (layout.buyerLines) {
    doc.moveDown(0.5);
    for (const line of layout.buyerLines) doc.text(line);
  }
  if (layout.paymentReference) doc.text(layout.paymentReference);
  doc.moveDown();

  /** A table row: each cell from its column's left edge to the next one's; the row is as tall as its tallest cell. */
  const table = (columns: number[], align: ('left' | 'right')[]) => (cells: string[]) => {
    const y = doc.y;
    let bottom = y;
    cells.forEach((cell, i) => {
      doc.text(cell, columns[i], y, { width: (columns[i + 1] ?? 545) - columns[i] - 5, align: align[i] });
      bottom = Math.max(bottom, doc.y);
    });
    doc.x = columns[0];
    doc.y = bottom;
    doc.moveDown(0.3);
  };
  const right = (n: number) => Array<'right'>(n).fill('right');
  const row = table([50, 200, 260, 335, 385, 455], ['left', ...right(5)]);
  doc.font('Helvetica-Bold');
  row(['Description', 'Quantity', 'Unit price', 'VAT %', 'VAT', 'Total excl. VAT']);
  doc.font('Helvetica');
  for (const cells of layout.rows) row(cells);
  doc.moveDown();
  // The VAT per rate, under the rows' columns: taxable amount, rate, VAT.
  const breakdown = table([50, 200, 335, 385, 455], ['left', ...right(4)]);
  doc.font('Helvetica-Bold');
  breakdown(['VAT breakdown', 'Taxable amount', 'Rate', 'VAT', '']);
  doc.font('Helvetica');
  for (const cells of layout.vatLines) breakdown(cells);
  doc.moveDown();
  const total = table([50, 300, 455], ['left', 'right', 'right']);
  doc.font('Helvetica-Bold');
  for (const cells of layout.totals) total(cells);
  doc.font('Helvetica');
  for (const note of layout.notes) {
    doc.moveDown();
    doc.text(note, 50);
  }
  doc.end();
  return done;
}

/** A request to the thread, and its answer: the PDF's bytes or the failure's message. */
export interface DrawRequest {
  id: number;
  layout: InvoicePdfLayout;
  logo: Uint8Array | null;
}
export type DrawAnswer = { id: number; pdf: Uint8Array } | { id: number; error: string };

// Structured clone hands a Buffer over as a plain Uint8Array, which pdfkit would take for a path.
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

if (parentPort && workerData === PDF_THREAD) {
  const port = parentPort;
  port.on('message', ({ id, layout, logo }: DrawRequest) => {
    drawInvoicePdf(layout, logo && asBuffer(logo)).then(
      (pdf) => port.postMessage({ id, pdf } satisfies DrawAnswer),
      (err: unknown) =>
        port.postMessage({
          id,
          error: err instanceof Error ? err.message : String(err),
        } satisfies DrawAnswer),
    );
  });
}
