import { raw } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { Context } from '../../../context';
import { InboundEmail, InboundEmailStatus } from '../entities/inbound-email';
import { FamilyService } from '../../../family/service';
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
