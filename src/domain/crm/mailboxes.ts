import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { queryRows } from '../../db/orm-bypass/statements';
import type { Rows } from '../../db/orm-bypass/statements';
import { conflict, notFound } from '../../errors';
import { isUuid } from '../../limits';
import type { CreateMailboxInput, Mailbox, UpdateMailboxInput } from './api/mailbox-inputs';
import { encryptPassword } from './mailbox-secret';

/**
 * The tenant's IMAP mailboxes, read by the `crm.mailboxes` job (mailbox-poll.ts). They are kept
 * by statements rather than as an entity: an entity's changes become history entries and outbox
 * events, and the encrypted password must reach neither. The password is written, never read
 * back through here.
 */

type Row = Rows[number];

/** A row as the API shows it: everything but the password and the reading position. */
export const mailboxOf = (row: Row): Mailbox => ({
  id: String(row.id),
  host: String(row.host),
  port: Number(row.port),
  secure: Boolean(row.secure),
  username: String(row.username),
  folder: String(row.folder),
  enabled: Boolean(row.enabled),
  lastPolledAt: row.last_polled_at ? new Date(row.last_polled_at as string) : null,
  lastError: (row.last_error as string | null) ?? null,
  created: row.created ? new Date(row.created as string) : null,
  updated: row.updated ? new Date(row.updated as string) : null,
});

const SAME_ACCOUNT = (host: string, username: string, folder: string) =>
  conflict(`mailboxes: ${username} at ${host} (folder ${folder}) is configured already`);

/** Every mailbox of the tenant, oldest first. */
export async function listMailboxes(em: EntityManager, tenantId: string): Promise<Mailbox[]> {
  const rows = await queryRows(em, `select * from mailbox where tenant_id = $1 order by created, id`, [
    tenantId,
  ]);
  return rows.map(mailboxOf);
}

/** The stored rows of the enabled mailboxes, for the job (password still encrypted). */
export const enabledMailboxes = (em: EntityManager, tenantId: string): Promise<Rows> =>
  queryRows(em, `select * from mailbox where tenant_id = $1 and enabled order by created, id`, [tenantId]);

async function sameAccount(
  em: EntityManager,
  tenantId: string,
  account: { host: string; port: number; username: string; folder: string },
  except: string | null,
): Promise<boolean> {
  const rows = await queryRows(
    em,
    `select 1 from mailbox where tenant_id = $1 and host = $2 and port = $3 and username = $4 and folder = $5
       and ($6::uuid is null or id <> $6::uuid)`,
    [tenantId, account.host, account.port, account.username, account.folder, except],
  );
  return rows.length > 0;
}

/** Configures a mailbox; 409 without MAILBOX_SECRET_KEY or for an account configured already. */
export async function createMailbox(
  em: EntityManager,
  tenantId: string,
  by: string,
  input: CreateMailboxInput,
): Promise<Mailbox> {
  const secure = input.secure ?? true;
  const account = {
    host: input.host.trim(),
    port: input.port ?? (secure ? 993 : 143),
    username: input.username,
    folder: input.folder ?? 'INBOX',
  };
  const encrypted = encryptPassword(input.password);
  if (await sameAccount(em, tenantId, account, null))
    throw SAME_ACCOUNT(account.host, account.username, account.folder);
  const [row] = await queryRows(
    em,
    `insert into mailbox (tenant_id, id, created, created_by, updated, updated_by, version, host, port, secure,
       username, password_encrypted, folder, enabled)
     values ($1, $2, now(), $3, now(), $3, 1, $4, $5, $6, $7, $8, $9, $10) returning *`,
    [
      tenantId,
      randomUUID(),
      by,
      account.host,
      account.port,
      secure,
      account.username,
      encrypted,
      account.folder,
      input.enabled ?? true,
    ],
  );
  return mailboxOf(row);
}

/**
 * Changes a mailbox. Another server, account or folder is another mailbox: the reading starts
 * again from its first message, as it does when `rescan` asks for it (what is stored already
 * stays stored once, by Message-ID).
 */
export async function updateMailbox(
  em: EntityManager,
  tenantId: string,
  by: string,
  id: string,
  input: UpdateMailboxInput,
): Promise<Mailbox> {
  if (!isUuid(id)) throw notFound(`Mailbox ${id} not found`);
  const [current] = await queryRows(em, `select * from mailbox where tenant_id = $1 and id = $2::uuid`, [
    tenantId,
    id,
  ]);
  if (!current) throw notFound(`Mailbox ${id} not found`);
  const account = {
    host: input.host?.trim() ?? String(current.host),
    port: input.port ?? Number(current.port),
    username: input.username ?? String(current.username),
    folder: input.folder ?? String(current.folder),
  };
  const moved =
    account.host !== current.host ||
    account.port !== Number(current.port) ||
    account.username !== current.username ||
    account.folder !== current.folder;
  const encrypted = input.password === undefined ? null : encryptPassword(input.password);
  if (moved && (await sameAccount(em, tenantId, account, id)))
    throw SAME_ACCOUNT(account.host, account.username, account.folder);
  const [row] = await queryRows(
    em,
    `update mailbox set host = $3, port = $4, username = $5, folder = $6, secure = coalesce($7, secure),
       enabled = coalesce($8, enabled), password_encrypted = coalesce($9, password_encrypted),
       uid_validity = case when $10 then null else uid_validity end,
       last_uid = case when $10 then null else last_uid end,
       updated = now(), updated_by = $11, version = version + 1
     where tenant_id = $1 and id = $2::uuid returning *`,
    [
      tenantId,
      id,
      account.host,
      account.port,
      account.username,
      account.folder,
      input.secure ?? null,
      input.enabled ?? null,
      encrypted,
      moved || input.rescan === true,
      by,
    ],
  );
  return mailboxOf(row);
}

/** Removes a mailbox (the e-mails read from it stay); false when there was none. */
export async function deleteMailbox(em: EntityManager, tenantId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await queryRows(
    em,
    `delete from mailbox where tenant_id = $1 and id = $2::uuid returning id`,
    [tenantId, id],
  );
  return rows.length > 0;
}
