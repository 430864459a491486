import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mailboxSecretKey } from '../../config';
import { conflict } from '../../errors';

/**
 * Mailbox passwords at rest: AES-256-GCM under MAILBOX_SECRET_KEY, a fresh 12-byte nonce per
 * password, stored as `v1.<nonce>.<tag>.<ciphertext>` (base64). GCM's tag makes a password
 * encrypted under another key, or altered in the table, fail to decrypt rather than yield garbage
 * that would be sent to the IMAP server. The key is read when needed, so a process started
 * without it still serves everything but mailboxes.
 */
const VERSION = 'v1';

function keyOrRefuse(): Buffer {
  const key = mailboxSecretKey(process.env);
  if (!key)
    throw conflict(
      'mailboxes: the service has no MAILBOX_SECRET_KEY to encrypt mailbox passwords with; an operator must set it (docs/operations.md)',
    );
  return key;
}

/** Encrypts a password for the mailbox table; refused (409) where no key is configured. */
export function encryptPassword(password: string): string {
  const key = keyOrRefuse();
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const data = Buffer.concat([cipher.update(password, 'utf8'), cipher.final()]);
  return [VERSION, nonce, cipher.getAuthTag(), data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64')))
    .join('.');
}

/** The password `encryptPassword` stored; throws where the key is missing or not the one used. */
export function decryptPassword(stored: string): string {
  const [version, nonce, tag, data] = stored.split('.');
  if (version !== VERSION || !nonce || !tag || data === undefined)
    throw new Error('a mailbox password is not in the stored form');
  const decipher = createDecipheriv('aes-256-gcm', keyOrRefuse(), Buffer.from(nonce, 'base64'));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
}
