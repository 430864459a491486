import type { EntityManager } from '@mikro-orm/core';
import { ImapFlow } from 'imapflow';
import { tenantWork, type InTenant } from '../../db/tenant-transaction';
import type { ScheduledJob } from '../../jobs/job';
import type { Logger } from '../../logger';
import { AppError } from '../../errors';
import type { FileStore } from '../files/stored-files';
import { receiveMessage, MAX_RAW_MESSAGE_BYTES } from './inbound-mail';
import { Mailbox } from './entities/mailbox';
import { enabledMailboxes } from './mailboxes';
import { decryptPassword } from './mailbox-secret';

/** The job's name, which its writes are signed with. */
const JOB = 'crm.mailboxes';

/** Messages one run reads from a mailbox at most; the next run takes the rest, in UID order. */
export const MESSAGES_PER_RUN = 100;

/** How long connecting (TCP, TLS, greeting, sign-in) and then an idle socket may take. */
const CONNECT_MS = 30_000;
const SOCKET_MS = 120_000;

/** What a run found in one mailbox. */
interface Reading {
  uidValidity: string;
  lastUid: number;
  stored: number;
}

/**
 * Reads one mailbox's folder from the UID after the last one read: IMAP's UIDVALIDITY says
 * whether the UIDs still mean what they did; a new one (the folder was recreated) reads it again
 * from its start, and the Message-IDs stored already keep every e-mail once. Each message is
 * stored in a transaction of its own (`inTenant`); one that cannot be read as a message, or too
 * large, is passed over rather than holding the mailbox up forever.
 */
async function readMailbox(
  inTenant: InTenant,
  tenantId: string,
  files: FileStore | undefined,
  row: Mailbox,
  logger: Logger,
): Promise<Reading> {
  const client = new ImapFlow({
    host: row.host,
    port: row.port,
    secure: row.secure,
    auth: { user: row.username, pass: decryptPassword(row.passwordEncrypted) },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: CONNECT_MS,
    socketTimeout: SOCKET_MS,
  });
  // A dropped connection is reported by the command waiting on it; this keeps it from being an
  // unhandled 'error' event of the process.
  client.on('error', (err: Error) => logger.warn({ err, mailbox: row.id }, 'IMAP connection failed'));
  await client.connect();
  try {
    const lock = await client.getMailboxLock(row.folder, { readOnly: true });
    try {
      const opened = client.mailbox === false ? undefined : client.mailbox;
      const uidValidity = String(opened?.uidValidity ?? '');
      const from = row.uidValidity === uidValidity && row.lastUid != null ? row.lastUid : 0;
      const found = opened?.exists ? await client.search({ uid: `${from + 1}:*` }, { uid: true }) : [];
      // `n:*` names the last message even when its UID is below n: only the UIDs after `from` count.
      const uids = (found || [])
        .filter((uid) => uid > from)
        .sort((a, b) => a - b)
        .slice(0, MESSAGES_PER_RUN);
      const lastUid = uids.length > 0 ? uids[uids.length - 1] : from;
      let stored = 0;
      if (uids.length > 0) {
        // Sizes first: a message over the limit is passed over without being downloaded.
        const sizes = await client.fetchAll(uids, { uid: true, size: true }, { uid: true });
        const small = sizes.filter((m) => (m.size ?? 0) <= MAX_RAW_MESSAGE_BYTES).map((m) => m.uid);
        const messages = small.length
          ? await client.fetchAll(small, { uid: true, source: true }, { uid: true })
          : [];
        for (const message of messages.sort((a, b) => a.uid - b.uid)) {
          if (!message.source) continue;
          try {
            const received = await receiveMessage(
              inTenant,
              { tenantId, userId: null, files },
              message.source,
            );
            if (received.created) stored += 1;
          } catch (err) {
            if (!(err instanceof AppError && err.status === 400)) throw err;
            logger.warn({ mailbox: row.id, uid: message.uid, err: err.message }, 'IMAP message passed over');
          }
        }
      }
      return { uidValidity, lastUid, stored };
    } finally {
      lock.release();
    }
  } finally {
    await client.logout().catch(() => client.close());
  }
}

/**
 * Reads the tenant's enabled mailboxes once each: what is new in each is stored in the inbox
 * (receiveMessage), and where the reading stopped is recorded with the mailbox. A mailbox that
 * cannot be read (server unreachable, sign-in refused, folder missing) records why in
 * `lastError` and the others are still read. Answers how many e-mails were stored.
 *
 * No transaction is open while the IMAP server or the file store is waited for: each message
 * stored, and each mailbox's record, is a transaction of its own as the tenant, from `em` outside
 * any transaction (as the scheduled job runs it; given one in the tenant's transaction, all goes
 * into that), and a message's attachments are written to the store before it (receiveMessage). A
 * server that does not answer takes up to the connect and socket timeouts, and a transaction held
 * meanwhile kept a pooled connection, the embedded database's only one, from every request.
 */
export async function pollMailboxes(
  em: EntityManager,
  tenantId: string,
  files: FileStore | undefined,
  logger: Logger,
): Promise<number> {
  const inTenant = tenantWork(em, tenantId, JOB);
  let stored = 0;
  for (const row of await inTenant((t) => enabledMailboxes(t, tenantId))) {
    let reading: Reading;
    try {
      reading = await readMailbox(inTenant, tenantId, files, row, logger);
    } catch (err) {
      if (err instanceof AppError) throw err;
      const reason = err instanceof Error ? err.message : String(err);
      logger.warn({ mailbox: row.id, err: reason }, 'mailbox could not be read');
      await inTenant((t) =>
        t.nativeUpdate(
          Mailbox,
          { tenantId, id: row.id },
          { lastPolledAt: new Date(), lastError: reason.slice(0, 1000) },
        ),
      );
      continue;
    }
    await inTenant((t) =>
      t.nativeUpdate(
        Mailbox,
        { tenantId, id: row.id },
        {
          uidValidity: reading.uidValidity,
          lastUid: reading.lastUid,
          lastPolledAt: new Date(),
          lastError: null,
        },
      ),
    );
    stored += reading.stored;
  }
  return stored;
}

/**
 * The tenants' mailboxes read as a scheduled job: every two minutes per tenant with the CRM on;
 * the items are the e-mails stored.
 */
export const mailboxesJob: ScheduledJob<FileStore> = {
  name: JOB,
  description: "reads what is new in the tenant's IMAP mailboxes into the inbox (inbox.received)",
  schedule: { every: 2 * 60_000 },
  perTenant: true,
  ownTransactions: true,
  module: 'crm',
  run: ({ em, tenantId, files, logger }) => pollMailboxes(em, tenantId!, files, logger),
};
