import type { EntityManager } from '@mikro-orm/core';
import { OutboxEvent } from '../entities/outbox-event';
import { eventWrittenFor } from './outbox';
import type { MailAttachment, MailMessage } from './mail';
import { insertMailDelivery } from './delivery-repository';

/**
 * The most a queued message's attachments may weigh together, decoded. They travel inline, as
 * base64 in the delivery's `target`, rather than as references to stored files: the message
 * then sends as it was when it was queued even if the invoice's PDF is rendered again or its file
 * removed meanwhile, and the worker needs no file store. Every claim of e-mail deliveries reads
 * the `target` of up to a batch of rows, so the bound keeps a claim's rows small: an invoice PDF
 * is tens of kilobytes, a structured invoice fewer still.
 */
export const MAX_MAIL_ATTACHMENT_BYTES = 1024 * 1024;

export const attachmentOf = (filename: string, contentType: string, bytes: Buffer): MailAttachment => ({
  filename,
  contentType,
  content: bytes.toString('base64'),
});

export const attachmentBytes = (attachments: readonly MailAttachment[]): number =>
  attachments.reduce((n, a) => n + Buffer.byteLength(a.content, 'base64'), 0);

/**
 * Queues `mail` as an EMAIL delivery of the tenant, in `em`'s transaction (so it goes only if
 * what it reports commits): the event worker sends it with the retries and backoff of every
 * e-mail (docs/events.md). `eventId` is the outbox event the message reports (an invoice mail:
 * its SentMail's creation), `eventType` what kind of message it is. Answers the delivery's id.
 */
export async function queueMail(
  em: EntityManager,
  fields: { tenantId: string; eventId: string; eventType: string; by: string; mail: MailMessage },
): Promise<string> {
  const size = attachmentBytes(fields.mail.attachments ?? []);
  if (size > MAX_MAIL_ATTACHMENT_BYTES)
    throw new Error(
      `the attachments weigh ${size} bytes, over the ${MAX_MAIL_ATTACHMENT_BYTES} a queued e-mail carries`,
    );
  return insertMailDelivery(em, fields);
}

/**
 * The outbox event each record's message reports, by record id: the record's latest event (of
 * `type`, when given), after the flush that wrote it, since a delivery's `eventId` is a foreign
 * key to it. Known from the transaction's own flushes where they wrote it; read back otherwise.
 */
export async function reportedEvents(
  em: EntityManager,
  tenantId: string,
  resourceIds: readonly string[],
  type?: string,
): Promise<Map<string, string>> {
  const latest = new Map<string, string>();
  // Written by this transaction's flush, as they mostly are: no read of the outbox, which has no
  // index by record and grows with every write.
  for (const id of resourceIds) {
    const event = eventWrittenFor(em, tenantId, id, type);
    if (event) latest.set(id, event);
  }
  const unknown = resourceIds.filter((id) => !latest.has(id));
  if (unknown.length === 0) return latest;
  const events = await em.find(
    OutboxEvent,
    { tenantId, resourceId: { $in: unknown }, ...(type === undefined ? {} : { type }) },
    { fields: ['id', 'resourceId'], orderBy: { occurredAt: 'desc', id: 'desc' } },
  );
  for (const e of events) if (!latest.has(e.resourceId!)) latest.set(e.resourceId!, e.id);
  return latest;
}
