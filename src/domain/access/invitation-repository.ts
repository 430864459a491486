import type { EntityManager } from '@mikro-orm/core';
import { queryRows } from '../../db/orm-bypass/statements';

/**
 * The statements of the users' invitations (entities/user-invitation.ts): an invitation is
 * stored by one upsert, so inviting a user twice at once still leaves one invitation, and spent by
 * one conditional update, so it is redeemed once however many requests arrive with it.
 */

interface SpentRow {
  user_id: string;
}

/** A new invitation of `userId`, replacing any earlier one of the user (a new id, token and expiry). */
export async function storeInvitation(
  em: EntityManager,
  invitation: {
    tenantId: string;
    id: string;
    by: string;
    userId: string;
    tokenHash: string;
    expiresAt: Date;
  },
): Promise<void> {
  const { tenantId, id, by, userId, tokenHash, expiresAt } = invitation;
  await queryRows(
    em,
    `insert into user_invitation (tenant_id, id, created, created_by, updated, updated_by, version,
       user_id, token_hash, expires_at, used_at)
     values ($1, $2, now(), $3, now(), $3, 1, $4, $5, $6, null)
     on conflict (tenant_id, user_id) do update set id = excluded.id, token_hash = excluded.token_hash,
       expires_at = excluded.expires_at, used_at = null, updated = now(), updated_by = excluded.updated_by,
       version = user_invitation.version + 1`,
    [tenantId, id, by, userId, tokenHash, expiresAt],
  );
}

/** Spends the live (unspent, unexpired at `now`) invitation of this token digest; answers its user. */
export async function spendByToken(
  em: EntityManager,
  tenantId: string,
  tokenHash: string,
  now: Date,
): Promise<string | null> {
  const [row] = await queryRows<SpentRow>(
    em,
    `update user_invitation set used_at = $3, updated = $3, version = version + 1
       where tenant_id = $1 and token_hash = $2 and used_at is null and expires_at > $3
       returning user_id`,
    [tenantId, tokenHash, now],
  );
  return row?.user_id ?? null;
}

/** Spends the live invitation of `userId`, if there is one; answers whether there was. */
export async function spendForUser(
  em: EntityManager,
  tenantId: string,
  userId: string,
  now: Date,
): Promise<boolean> {
  const rows = await queryRows<SpentRow>(
    em,
    `update user_invitation set used_at = $3, updated = $3, version = version + 1
       where tenant_id = $1 and user_id = $2 and used_at is null and expires_at > $3
       returning user_id`,
    [tenantId, userId, now],
  );
  return rows.length > 0;
}
