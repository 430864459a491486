/** The name Factur-X gives the CII it embeds in the PDF. */
export const FACTUR_X_XML = 'factur-x.xml';

/**
 * A Factur-X PDF with its embedded `factur-x.xml` replaced by `xml`: the CII the service answers
 * for `format=cii`, which carries what the e-invoice library's own CII leaves out (a credit note's
 * preceding invoice). The rest of the PDF (its PDF/A-3 metadata, the file's relationship and
 * description) is kept as the library wrote it; pdf-lib is the library the e-invoice library
 * writes the PDF with, so the file is read and written by the same code.
 */
export async function withFacturXml(pdf: Uint8Array, xml: string): Promise<Uint8Array> {
  // Loaded with the e-invoice library, on the first Factur-X, not at start-up.
  const { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRef, PDFStream, PDFString } =
    await import('@cantoo/pdf-lib');
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const names = doc.catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  const embedded = names?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict);
  const list = embedded?.lookupMaybe(PDFName.of('Names'), PDFArray);
  const bytes = new TextEncoder().encode(xml);
  for (let i = 0; list && i + 1 < list.size(); i += 2) {
    const name = list.lookup(i);
    if (!(name instanceof PDFString || name instanceof PDFHexString) || name.decodeText() !== FACTUR_X_XML)
      continue;
    const file = list
      .lookup(i + 1, PDFDict)
      .lookup(PDFName.of('EF'), PDFDict)
      .get(PDFName.of('F'));
    if (!(file instanceof PDFRef)) break;
    const old = doc.context.lookup(file);
    const params = old instanceof PDFStream ? old.dict.lookupMaybe(PDFName.of('Params'), PDFDict) : undefined;
    params?.set(PDFName.of('Size'), doc.context.obj(bytes.length));
    doc.context.assign(
      file,
      doc.context.flateStream(bytes, {
        Type: 'EmbeddedFile',
        Subtype: 'text/xml',
        ...(params ? { Params: params } : { Params: { Size: bytes.length } }),
      }),
    );
    return doc.save();
  }
  throw new Error(`the Factur-X PDF has no ${FACTUR_X_XML} to replace`);
}
