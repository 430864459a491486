import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { badRequest } from '../../errors';
import { queueMail, reportedEvents } from '../../events/outbound-mail';
import { InboundEmail, InboundEmailStatus } from './entities/inbound-email';
import { SentMail } from './entities/sent-mail';

/** The delivery's event type of an answer from the inbox (its event: its SentMail's creation). */
export const REPLY_MAIL_EVENT = 'inbox.reply_mail';

/** The most an answer's text may hold. */
export const MAX_REPLY_CHARS = 100_000;

/** "Re: " once, however many answers the subject has been through. */
const replySubject = (subject: string | null | undefined): string => {
  const base = (subject ?? '').trim();
  return /^re:/i.test(base) ? base : `Re: ${base}`.trim();
};

/**
 * The answer's own Message-ID: on the domain the e-mail was sent to (the tenant's address),
 * so replies to it come back threaded onto its SentMail.
 */
const newMessageId = (email: InboundEmail): string => {
  const domain = email.recipients.map((r) => r.split('@')[1]).find((d) => d && /^[\w.-]+$/.test(d));
  return `<${randomUUID()}@${domain ?? 'localhost'}>`;
};

/**
 * Answers an inbound e-mail through the outbox, in `em`'s transaction: a SentMail with the
 * answer's Message-ID, its e-mail queued with In-Reply-To and References so the sender's mail
 * program threads it, and the e-mail marked REPLIED. Sent (with retries) only if it commits.
 */
export async function replyToEmail(
  em: EntityManager,
  email: InboundEmail,
  input: { body: string; subject?: string | null },
  by: string,
): Promise<SentMail> {
  if (!email.fromEmail) throw badRequest('the e-mail has no sender address to answer');
  if (!input.body.trim()) throw badRequest('body: the answer is empty');
  if (input.body.length > MAX_REPLY_CHARS) throw badRequest(`body: at most ${MAX_REPLY_CHARS} characters`);
  const subject = input.subject?.trim() || replySubject(email.subject);
  const messageId = newMessageId(email);
  const sent = Object.assign(new SentMail(), {
    tenantId: email.tenantId,
    recipient: email.fromEmail,
    subject,
    opened: false,
    messageId,
  });
  em.persist(sent);
  email.status = InboundEmailStatus.REPLIED;
  // The flush writes the SentMail's `sent_mail.created` event; the e-mail's delivery is of it.
  await em.flush();
  const eventId = (await reportedEvents(em, email.tenantId, [sent.id], 'sent_mail.created')).get(sent.id);
  const parent = email.internetMessageId;
  const headers: Record<string, string> = { 'Message-ID': messageId };
  if (parent) {
    headers['In-Reply-To'] = parent;
    // The thread as the parent named it, then the parent: RFC 5322's References.
    const earlier = email.conversationId && email.conversationId !== parent ? [email.conversationId] : [];
    headers.References = [...earlier, parent].join(' ');
  }
  await queueMail(em, {
    tenantId: email.tenantId,
    eventId: eventId ?? sent.id,
    eventType: REPLY_MAIL_EVENT,
    by,
    mail: { to: email.fromEmail, subject, text: input.body, headers },
  });
  return sent;
}
