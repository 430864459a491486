import type { EntityManager } from '@mikro-orm/core';
import { queryRows } from '../../db/orm-bypass/statements';

/**
 * The inbox's statements that are not a record's read or write: a lock of one Message-ID, and
 * look-ups across two tables at once (received and sent e-mails; leads and customers).
 */

/** An earlier e-mail of a thread: one received, or one the service sent (no conversation then). */
export interface EarlierMessageRow {
  id: string;
  message_id: string;
  conversation_id: string | null;
}

/** The record whose e-mail address is the sender's. */
export interface SenderRow {
  id: string;
  type: 'LEAD' | 'CUSTOMER';
}

/**
 * Waits for, then holds until the transaction ends, the lock of `key` (a Message-ID within its
 * tenant), so two processes storing one message take turns.
 */
export async function lockMessage(em: EntityManager, key: string): Promise<void> {
  await queryRows(em, `select pg_advisory_xact_lock(hashtextextended($1, 0))`, [key]);
}

/** The e-mails, received or sent, whose Message-IDs are among `ids`. */
export const messagesByIds = (em: EntityManager, tenantId: string, ids: readonly string[]) =>
  queryRows<EarlierMessageRow>(
    em,
    `select id, internet_message_id as message_id, conversation_id from inbound_email
       where tenant_id = $1 and internet_message_id = any($2::text[])
     union all
     select id, message_id, null from sent_mail where tenant_id = $1 and message_id = any($2::text[])`,
    [tenantId, ids],
  );

/** The lead, else the customer, with this e-mail address (any case; the newest of several). */
export async function senderOf(
  em: EntityManager,
  tenantId: string,
  address: string,
): Promise<SenderRow | null> {
  const [row] = await queryRows<SenderRow>(
    em,
    `(select id, 'LEAD' as type, 1 as rank, created from lead where tenant_id = $1 and lower(email) = lower($2))
     union all
     (select id, 'CUSTOMER', 2, created from customer where tenant_id = $1 and lower(email) = lower($2))
     order by rank, created desc limit 1`,
    [tenantId, address],
  );
  return row ? { id: row.id, type: row.type } : null;
}
