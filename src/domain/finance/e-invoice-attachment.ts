import type { MailAttachment } from '../../events/mail';
import type { Invoice } from './entities/invoice';

/**
 * The structured invoice (EN 16931 XML) an invoice e-mail carries besides the PDF, when the
 * tenant has turned that on; null sends the PDF alone. Nothing produces one yet: this is where
 * the e-invoice module plugs in, and until then every invoice e-mail carries the PDF only.
 */
export function eInvoiceAttachment(_invoice: Invoice): Promise<MailAttachment | null> {
  return Promise.resolve(null);
}
