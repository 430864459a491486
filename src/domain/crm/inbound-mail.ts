import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { badRequest } from '../../errors';
import { FileAsset } from '../../entities/shared';
import type { InTenant } from '../../db/tenant-transaction';
import { assetOf, limitsAndUse, type FileStore, type PutFile } from '../files/stored-files';
import { InboundEmail, InboundEmailStatus } from './entities/inbound-email';
import { lockMessage, messagesByIds, senderOf } from './inbound-mail-repository';

/**
 * The most a raw message may weigh when it is handed over (REST body, or one message read from a
 * mailbox); the request body limit of the REST facade bounds the first one before it gets here.
 */
export const MAX_RAW_MESSAGE_BYTES = 1024 * 1024;

/** How many attachments of one message are stored at most; the rest are left out. */
const MAX_ATTACHMENTS = 20;

/** The Message-IDs a header holds, angle brackets kept (how the column stores them). */
function messageIds(value: string | string[] | undefined): string[] {
  const list = Array.isArray(value) ? value : value ? [value] : [];
  return list.flatMap((v) => v.match(/<[^<>\s]+>/g) ?? []);
}

const addresses = (field: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(field) ? field : field ? [field] : [])
    .flatMap((a) => a.value)
    .map((a) => a.address)
    .filter((a): a is string => Boolean(a));

/**
 * Reads a raw RFC 5322 message with mailparser. What mailparser reads from anything is not yet a
 * message: one with no sender address, or with no header at all, is a 400.
 */
export async function parseRawMessage(raw: Buffer): Promise<ParsedMail> {
  if (raw.length === 0) throw badRequest('message: the message is empty');
  if (raw.length > MAX_RAW_MESSAGE_BYTES)
    throw badRequest(`message: ${raw.length} bytes, over the ${MAX_RAW_MESSAGE_BYTES} a message may have`);
  const parsed = await simpleParser(raw, { skipImageLinks: true });
  if (parsed.headers.size === 0 || !parsed.from?.value.some((a) => a.address))
    throw badRequest('message: not an RFC 5322 message with a From address');
  return parsed;
}

/** An earlier e-mail of the thread: one received, or one the service sent. */
interface Earlier {
  id: string;
  messageId: string;
  conversationId: string | null;
}

/** The e-mails, received or sent, whose Message-IDs are among `ids`. */
async function earlierMessages(em: EntityManager, tenantId: string, ids: string[]): Promise<Earlier[]> {
  if (ids.length === 0) return [];
  const rows = await messagesByIds(em, tenantId, ids);
  return rows.map((r) => ({ id: r.id, messageId: r.message_id, conversationId: r.conversation_id }));
}

/**
 * Where a message stands in its thread. Its parent is the e-mail its In-Reply-To names (else the
 * nearest of its References we hold); its conversation is the one of the earlier e-mails we hold,
 * else the thread's first Message-ID (References start with it), else its own: a conversation is
 * named after the message that opened it, whoever of us holds that one.
 */
async function threadOf(
  em: EntityManager,
  tenantId: string,
  own: string,
  inReplyTo: string[],
  references: string[],
): Promise<{ parentId: string | null; conversationId: string }> {
  const chain = [...references, ...inReplyTo.filter((id) => !references.includes(id))];
  const earlier = await earlierMessages(em, tenantId, chain);
  const byId = new Map(earlier.map((e) => [e.messageId, e]));
  const parent =
    inReplyTo.map((id) => byId.get(id)).find(Boolean) ??
    [...chain]
      .reverse()
      .map((id) => byId.get(id))
      .find(Boolean);
  const known = chain.map((id) => byId.get(id)?.conversationId).find(Boolean);
  return { parentId: parent?.id ?? null, conversationId: known ?? chain[0] ?? own };
}

/**
 * Writes the message's attachments to the file store, as far as the tenant's file limits allow:
 * one larger than its largest file, or beyond its quota, is left out rather than losing the
 * e-mail for it. Run outside the message's transaction: with an object store each is a network
 * call, which must not hold a connection of the pool (the embedded database's only one) and the
 * lock of the message's Message-ID while it runs. The limits are read in a transaction of
 * `inTenant`; a message stored already has nothing written (a mailbox read again, a retry).
 */
async function putAttachments(
  inTenant: InTenant,
  files: FileStore,
  tenantId: string,
  messageId: string,
  parsed: ParsedMail,
): Promise<PutFile[]> {
  const known = await inTenant(async (em) =>
    (await em.count(InboundEmail, { tenantId, internetMessageId: messageId })) > 0
      ? null
      : limitsAndUse(em, tenantId, files.settings.defaults),
  );
  if (!known) return [];
  const { limits, used } = known;
  let room = limits.quotaBytes - used;
  const puts: PutFile[] = [];
  for (const [i, attachment] of parsed.attachments.slice(0, MAX_ATTACHMENTS).entries()) {
    const bytes = attachment.content;
    if (bytes.length > limits.maxFileSize || bytes.length > room) continue;
    puts.push(
      await files.putBytes(tenantId, {
        name: attachment.filename || `attachment-${i + 1}`,
        type: (attachment.contentType || 'application/octet-stream').toLowerCase(),
        bytes,
      }),
    );
    room -= bytes.length;
  }
  return puts;
}

/** Where a message came from and who stores it. */
export interface Receipt {
  tenantId: string;
  /** The user storing it (the caller of the raw endpoint), null for the mailbox job. */
  userId: string | null;
  files?: FileStore;
}

/**
 * Stores a raw message in the tenant's inbox as NEW, once: a message whose Message-ID is stored
 * already answers the stored e-mail (`created` false). A message without a Message-ID is known
 * by the digest of its bytes instead, so reading it twice still stores it once. Two processes
 * storing one message at once wait for each other on a lock of its Message-ID; the unique index
 * of (tenant, Message-ID) stays the last word. Threaded, linked to the sender's lead or customer,
 * its attachments stored as files; the flush produces `inbox.received` for the inbox's readers.
 */
export async function receiveMessage(
  inTenant: InTenant,
  receipt: Receipt,
  raw: Buffer,
): Promise<{ email: InboundEmail; created: boolean }> {
  const parsed = await parseRawMessage(raw);
  const messageId =
    messageIds(parsed.messageId)[0] ?? `<${createHash('sha256').update(raw).digest('hex')}@no-message-id>`;
  const { files, tenantId } = receipt;
  const puts =
    files && parsed.attachments.length > 0
      ? await putAttachments(inTenant, files, tenantId, messageId, parsed)
      : [];
  let recorded = false;
  try {
    const received = await inTenant((em) => storeMessage(em, receipt, parsed, messageId, puts));
    recorded = received.created;
    return received;
  } finally {
    // Written for a message another transaction stored first, or for one that failed.
    if (files && !recorded) for (const put of puts) await files.discard(put).catch(() => undefined);
  }
}

/** The message's row and its attachments' files, in `em`'s transaction, unless it is stored already. */
async function storeMessage(
  em: EntityManager,
  receipt: Receipt,
  parsed: ParsedMail,
  messageId: string,
  puts: PutFile[],
): Promise<{ email: InboundEmail; created: boolean }> {
  await lockMessage(em, `inbound_email|${receipt.tenantId}|${messageId}`);
  const existing = await em.findOne(InboundEmail, {
    tenantId: receipt.tenantId,
    internetMessageId: messageId,
  });
  if (existing) return { email: existing, created: false };

  const from = parsed.from!.value.find((a) => a.address)!;
  const inReplyTo = messageIds(parsed.inReplyTo);
  const thread = await threadOf(em, receipt.tenantId, messageId, inReplyTo, messageIds(parsed.references));
  const related = await senderOf(em, receipt.tenantId, from.address!);
  const attachments = puts.length
    ? (await receipt.files!.recordPuts(em, receipt.userId, puts)).map((file) =>
        Object.assign(new FileAsset(), assetOf(file)),
      )
    : [];
  const email = Object.assign(new InboundEmail(), {
    tenantId: receipt.tenantId,
    status: InboundEmailStatus.NEW,
    receivedAt: new Date(),
    subject: parsed.subject?.slice(0, 1000) ?? null,
    bodyText: parsed.text ?? null,
    bodyHtml: typeof parsed.html === 'string' ? parsed.html : null,
    fromEmail: from.address,
    fromName: from.name || null,
    recipients: addresses(parsed.to),
    cc: addresses(parsed.cc),
    internetMessageId: messageId,
    inReplyTo: inReplyTo[0] ?? null,
    conversationId: thread.conversationId,
    parentCommunicationId: thread.parentId,
    relatedEntityId: related?.id ?? null,
    relatedEntityType: related?.type ?? null,
    attachments,
  });
  em.persist(email);
  await em.flush();
  return { email, created: true };
}
