import { raw } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { Context } from '../../../context';
import { callerOf } from '../../../context';
import { badRequest } from '../../../errors';
import { inTransaction } from '../../../db/transaction';
import { receiveMessage } from '../inbound-mail';
import { replyToEmail } from '../inbox-reply';
import type { SentMail } from '../entities/sent-mail';
import { InboundEmail, InboundEmailStatus } from '../entities/inbound-email';
import { FamilyService } from '../../../family/service';
import type { ReplyInboundEmailInput } from './inbox-reply-inputs';
import { inbox, type InboxCounts } from './inbox';
import type { IngestInboundEmailInput } from './inbound-email-inputs';

const service = new FamilyService(inbox);

/**
 * Stores an e-mail as a mail gateway hands it over: unread, received now unless it says when.
 * Gateways retry, so a Message-ID already in the inbox answers with the e-mail stored before.
 */
export async function ingestInboundEmail(
  ctx: Context,
  input: IngestInboundEmailInput,
): Promise<InboundEmail> {
  if (input.internetMessageId) {
    const existing = await ctx.em.findOne(InboundEmail, { internetMessageId: input.internetMessageId });
    if (existing) return existing;
  }
  return service.create(ctx, {
    ...input,
    status: InboundEmailStatus.NEW,
    receivedAt: input.receivedAt ?? new Date(),
  });
}

/** One grouped count for all the counters, within the caller's tenant (the query applies the filter). */
export async function inboxCounts(ctx: Context): Promise<InboxCounts> {
  const qb = (ctx.em as SqlEntityManager).createQueryBuilder(InboundEmail, 'e');
  qb.select(['e.status as status', raw('count(*)::int as n')]).groupBy('e.status');
  await qb.applyFilters();
  const perStatus = Object.fromEntries(Object.values(InboundEmailStatus).map((s) => [s, 0])) as Record<
    InboundEmailStatus,
    number
  >;
  for (const row of (await qb.execute('all', false)) as { status: InboundEmailStatus; n: number }[])
    perStatus[row.status] = Number(row.n);
  const total = Object.values(perStatus).reduce((sum, n) => sum + n, 0);
  return { unread: perStatus.NEW, total, ...perStatus };
}

/** A raw message in base64 (how the REST row hands a message/rfc822 body over), decoded; else 400. */
function decoded(message: string): Buffer {
  const text = message.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0)
    throw badRequest(
      'message: not base64 (send the message itself as message/rfc822, or {"message": base64})',
    );
  return Buffer.from(text, 'base64');
}

/** Stores a raw RFC 5322 message in the caller's inbox (inbound-mail.ts), once per Message-ID. */
export async function receiveInboundMessage(ctx: Context, message: string): Promise<InboundEmail> {
  const caller = callerOf(ctx);
  const raw = decoded(message);
  const { email } = await receiveMessage(
    (work) => inTransaction(ctx.em, () => work(ctx.em)),
    { tenantId: caller.tenantId, userId: caller.userId, files: ctx.files },
    raw,
  );
  return email;
}

/** Answers an e-mail of the inbox (inbox-reply.ts): a SentMail, the e-mail queued, REPLIED. */
export async function replyToInboundEmail(
  ctx: Context,
  id: string,
  input: ReplyInboundEmailInput,
): Promise<SentMail> {
  return inTransaction(ctx.em, async () => {
    const email = await service.oneOrFail(ctx, id);
    return replyToEmail(ctx.em, email, input, callerOf(ctx).email);
  });
}
