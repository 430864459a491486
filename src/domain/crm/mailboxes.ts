import type { EntityManager } from '@mikro-orm/core';
import { conflict, notFound } from '../../errors';
import { isUuid } from '../../limits';
import type { CreateMailboxInput, Mailbox as MailboxView, UpdateMailboxInput } from './api/mailbox-inputs';
import { Mailbox } from './entities/mailbox';
import { encryptPassword } from './mailbox-secret';

/**
 * The tenant's IMAP mailboxes, read by the `crm.mailboxes` job (mailbox-poll.ts). The entity
 * keeps the encrypted password out of every record (entities/mailbox.ts says how): it is written
 * here, never read back through here.
 */

/** A mailbox as the API shows it: everything but the password and the reading position. */
export const mailboxOf = (mailbox: Mailbox): MailboxView => ({
  id: mailbox.id,
  host: mailbox.host,
  port: mailbox.port,
  secure: mailbox.secure,
  username: mailbox.username,
  folder: mailbox.folder,
  enabled: mailbox.enabled,
  lastPolledAt: mailbox.lastPolledAt ?? null,
  lastError: mailbox.lastError ?? null,
  created: mailbox.created ?? null,
  updated: mailbox.updated ?? null,
});

const SAME_ACCOUNT = (host: string, username: string, folder: string) =>
  conflict(`mailboxes: ${username} at ${host} (folder ${folder}) is configured already`);

const OLDEST_FIRST = { created: 'asc', id: 'asc' } as const;

/** Every mailbox of the tenant, oldest first. */
export async function listMailboxes(em: EntityManager, tenantId: string): Promise<MailboxView[]> {
  const mailboxes = await em.find(Mailbox, { tenantId }, { orderBy: OLDEST_FIRST });
  return mailboxes.map(mailboxOf);
}

/** The enabled mailboxes, for the job: the only read that asks for the (encrypted) password. */
export const enabledMailboxes = (em: EntityManager, tenantId: string): Promise<Mailbox[]> =>
  em.find(Mailbox, { tenantId, enabled: true }, { populate: ['passwordEncrypted'], orderBy: OLDEST_FIRST });

async function sameAccount(
  em: EntityManager,
  tenantId: string,
  account: { host: string; port: number; username: string; folder: string },
  except: string | null,
): Promise<boolean> {
  const others = except === null ? {} : { id: { $ne: except } };
  return (await em.count(Mailbox, { tenantId, ...account, ...others })) > 0;
}

/** Configures a mailbox; 409 without MAILBOX_SECRET_KEY or for an account configured already. */
export async function createMailbox(
  em: EntityManager,
  tenantId: string,
  by: string,
  input: CreateMailboxInput,
): Promise<MailboxView> {
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
  const mailbox = Object.assign(new Mailbox(), {
    tenantId,
    ...account,
    secure,
    passwordEncrypted: encrypted,
    enabled: input.enabled ?? true,
    createdBy: by,
    updatedBy: by,
  });
  em.persist(mailbox);
  await em.flush();
  return mailboxOf(mailbox);
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
): Promise<MailboxView> {
  if (!isUuid(id)) throw notFound(`Mailbox ${id} not found`);
  const mailbox = await em.findOne(Mailbox, { tenantId, id });
  if (!mailbox) throw notFound(`Mailbox ${id} not found`);
  const account = {
    host: input.host?.trim() ?? mailbox.host,
    port: input.port ?? mailbox.port,
    username: input.username ?? mailbox.username,
    folder: input.folder ?? mailbox.folder,
  };
  const moved =
    account.host !== mailbox.host ||
    account.port !== mailbox.port ||
    account.username !== mailbox.username ||
    account.folder !== mailbox.folder;
  const encrypted = input.password === undefined ? null : encryptPassword(input.password);
  if (moved && (await sameAccount(em, tenantId, account, id)))
    throw SAME_ACCOUNT(account.host, account.username, account.folder);
  Object.assign(mailbox, account);
  if (input.secure != null) mailbox.secure = input.secure;
  if (input.enabled != null) mailbox.enabled = input.enabled;
  if (encrypted !== null) mailbox.passwordEncrypted = encrypted;
  if (moved || input.rescan === true) {
    mailbox.uidValidity = null;
    mailbox.lastUid = null;
  }
  // Every change is written, as one with nothing new still is: the version moves and `updated`
  // says when the mailbox was last set.
  mailbox.updated = new Date();
  mailbox.updatedBy = by;
  await em.flush();
  return mailboxOf(mailbox);
}

/** Removes a mailbox (the e-mails read from it stay); false when there was none. */
export async function deleteMailbox(em: EntityManager, tenantId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  return (await em.nativeDelete(Mailbox, { tenantId, id })) > 0;
}
