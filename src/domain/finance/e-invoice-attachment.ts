import type { EntityManager } from '@mikro-orm/core';
import type { Tenant } from '../../entities/tenant';
import { attachmentOf } from '../../events/outbound-mail';
import type { MailAttachment } from '../../events/mail';
import type { Customer } from '../reference/entities/customer';
import { Invoice } from './entities/invoice';
import { eInvoiceXml } from './e-invoice';
import { buyerParty, sellerParty } from './invoice-parties';
import { financeDefaults } from './tenant-defaults';

/**
 * The structured invoice (EN 16931 XML, `invoice-<number>-ubl.xml` or `-cii.xml`) an invoice
 * e-mail carries besides the PDF when the tenant's `eInvoiceFormat` is set; null sends the PDF
 * alone. Seller or buyer details the format needs and the records lack are a 409 naming each
 * field, thrown before anything is queued, so an e-mail never goes without the XML it promises.
 */
export async function eInvoiceAttachment(
  em: EntityManager,
  tenant: Tenant,
  customer: Customer | null,
  invoice: Invoice,
): Promise<MailAttachment | null> {
  const format = financeDefaults(tenant.settings).eInvoiceFormat;
  if (!format) return null;
  const credited = invoice.creditedInvoiceId
    ? await em.findOne(Invoice, { id: invoice.creditedInvoiceId })
    : null;
  const billing = tenant.billingInfo;
  const bytes = await eInvoiceXml(
    invoice,
    sellerParty(tenant),
    customer ? buyerParty(customer) : null,
    format,
    { credited, iban: billing?.iban, bic: billing?.bic, cocNumber: billing?.cocNumber },
  );
  return attachmentOf(
    `invoice-${invoice.invoiceNumber ?? invoice.id}-${format}.xml`,
    'application/xml',
    bytes,
  );
}
