import type { EntityManager } from '@mikro-orm/core';
import { badRequest, conflict } from '../../errors';
import { Tenant } from '../../entities/tenant';
import type { FileBackend } from '../../files/backend';
import {
  queueMail,
  attachmentBytes,
  attachmentOf,
  MAX_MAIL_ATTACHMENT_BYTES,
  reportedEvents,
} from '../../events/outbound-mail';
import type { MailAttachment } from '../../events/mail';
import { Customer } from '../reference/entities/customer';
import { SentMail } from '../crm/entities/sent-mail';
import { findFile } from '../files/stored-files';
import { Invoice, InvoiceStatus } from './entities/invoice';
import { readAll, renderInvoicePdfIn } from './invoice-pdf';
import { eInvoiceAttachment } from './e-invoice-attachment';
import { mailTexts, type InvoiceMailKind } from './invoice-mail-texts';
import { financeDefaults } from './tenant-defaults';
import { cents, amount } from './money';

/** What a caller may say about an invoice e-mail; each left out takes its default. */
export interface InvoiceMailRequest {
  recipients?: string[] | null;
  subject?: string | null;
  body?: string | null;
}

/** The delivery's event type: what the message is (its event is its SentMail's `sent_mail.created`). */
export const MAIL_EVENT: Record<InvoiceMailKind, string> = {
  invoice: 'invoice.mail',
  reminder: 'invoice.reminder_mail',
};

const EMAIL = /^[^\s@<>,;]+@[^\s@<>,;]+\.[^\s@<>,;]+$/;

/**
 * The invoice's PDF as the customer gets it: the stored rendering where there is one and its
 * bytes can be read, otherwise (the PDF worker has not made it yet, or files are not served)
 * rendered now, as the worker renders it: a mail never goes without its PDF, nor waits for it.
 */
async function pdfOf(
  em: EntityManager,
  backend: FileBackend | undefined,
  tenant: Tenant,
  customer: Customer | null,
  invoice: Invoice,
): Promise<Buffer> {
  const stored = backend && invoice.pdf?.blobId ? await findFile(em, tenant.id, invoice.pdf.blobId) : null;
  if (backend && stored) return readAll(await backend.get(stored.storageKey));
  const credited = invoice.creditedInvoiceId
    ? await em.findOne(Invoice, { id: invoice.creditedInvoiceId })
    : null;
  return renderInvoicePdfIn(em, backend, invoice, { tenant, customer, credited });
}

/** The recipients asked for, else the invoice's contact address, else its customer's; checked. */
function recipientsOf(
  invoice: Invoice,
  customer: Customer | null,
  asked: string[] | null | undefined,
): string[] {
  const given = asked?.map((r) => r.trim()).filter(Boolean);
  const list = given?.length ? given : [invoice.contactEmail ?? customer?.email ?? ''].filter(Boolean);
  if (list.length === 0)
    throw badRequest(
      'recipients: the invoice has no recipient: give recipients, or set its contactEmail or its customer’s e-mail',
    );
  if (list.length > 20) throw badRequest('recipients: at most 20');
  list.forEach((r, i) => {
    if (!EMAIL.test(r)) throw badRequest(`recipients[${i}]: "${r}" is not an e-mail address`);
  });
  return [...new Set(list)];
}

/**
 * Mails an invoice (or a payment reminder for it) to its recipients: one message each, carrying
 * the PDF `invoice-<number>.pdf` (and the tenant's e-invoice XML where it asks for one: missing
 * seller or buyer details are then a 409 naming each field, and nothing is queued),
 * queued through the outbox's e-mail deliveries in `em`'s transaction, so it is sent, with
 * retries, only if the change that reports it commits. A SentMail is written per recipient and
 * its id added to the invoice's `sentMails`; a DRAFT invoice mailed becomes SENT. This `em` (the mails' deliveries are queued after their SentMails' events are written). A
 * cancelled invoice is a 409.
 */
export async function mailInvoice(
  em: EntityManager,
  backend: FileBackend | undefined,
  invoice: Invoice,
  kind: InvoiceMailKind,
  request: InvoiceMailRequest,
  by: string,
): Promise<SentMail[]> {
  if (invoice.status === InvoiceStatus.CANCELLED)
    throw conflict(`Invoice ${invoice.id} is CANCELLED: a cancelled invoice is not sent`);
  const tenant = await em.findOneOrFail(Tenant, { id: invoice.tenantId });
  const customer = invoice.clientId ? await em.findOne(Customer, { id: invoice.clientId }) : null;
  const recipients = recipientsOf(invoice, customer, request.recipients);
  const defaults = financeDefaults(tenant.settings);
  const currency = invoice.currency ?? defaults.currency;
  const due =
    kind === 'reminder' ? cents(invoice.totalWithTax) - cents(invoice.paid) : cents(invoice.totalWithTax);
  const number = invoice.invoiceNumber ?? invoice.id;
  const texts = mailTexts(defaults.language, kind, {
    number,
    tenant: tenant.name,
    amount: `${currency} ${amount(due).toFixed(2)}`,
    dueDate: invoice.dueDate ? invoice.dueDate.toISOString().slice(0, 10) : '',
  });
  const stored = kind === 'invoice' ? invoice.mailBody : invoice.reminderBody;
  const subject = request.subject?.trim() || texts.subject;
  const text = request.body ?? stored ?? texts.body;

  const attachments: MailAttachment[] = [
    attachmentOf(
      `invoice-${number}.pdf`,
      'application/pdf',
      await pdfOf(em, backend, tenant, customer, invoice),
    ),
  ];
  const structured = await eInvoiceAttachment(em, tenant, customer, invoice);
  if (structured) attachments.push(structured);
  const size = attachmentBytes(attachments);
  if (size > MAX_MAIL_ATTACHMENT_BYTES)
    throw badRequest(
      `pdf: the attachments weigh ${size} bytes, more than the ${MAX_MAIL_ATTACHMENT_BYTES} an e-mail of the service carries`,
    );

  const mails = recipients.map((to) =>
    Object.assign(new SentMail(), { tenantId: invoice.tenantId, recipient: to, subject, opened: false }),
  );
  for (const mail of mails) em.persist(mail);
  invoice.sentMails = [...(invoice.sentMails ?? []), ...mails.map((m) => m.id)];
  if (kind === 'invoice' && (invoice.status ?? InvoiceStatus.DRAFT) === InvoiceStatus.DRAFT)
    invoice.status = InvoiceStatus.SENT;
  // The flush writes each SentMail's `sent_mail.created` event; its e-mail delivery is of that event.
  await em.flush();
  const eventOf = await reportedEvents(
    em,
    invoice.tenantId,
    mails.map((m) => m.id),
    'sent_mail.created',
  );
  for (const mail of mails) {
    await queueMail(em, {
      tenantId: invoice.tenantId,
      eventId: eventOf.get(mail.id)!,
      eventType: MAIL_EVENT[kind],
      by,
      mail: { to: mail.recipient, subject, text, attachments },
    });
  }
  return mails;
}
