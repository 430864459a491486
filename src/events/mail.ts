import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from '../logger';

/** A file a message carries, inline (see outbound-mail.ts for why inline, and the bound). */
export interface MailAttachment {
  filename: string;
  contentType: string;
  /** The bytes, base64. */
  content: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The same message as HTML (digests); the text stays as its plain alternative. */
  html?: string;
  headers?: Record<string, string>;
  attachments?: MailAttachment[];
}

export interface Mailer {
  /** True when an SMTP server accepted the message; false when it was only written to a file or the log. */
  send(message: MailMessage): Promise<boolean>;
  close(): void;
}

/** What nodemailer is given for a message: attachments decoded from their stored base64. */
const nodemailerMessage = (from: string, message: MailMessage) => ({
  from,
  ...message,
  attachments: message.attachments?.map((a) => ({
    filename: a.filename,
    contentType: a.contentType,
    content: a.content,
    encoding: 'base64',
  })),
});

/**
 * Notification and invoice e-mail through the SMTP server of `smtpUrl` (nodemailer). The worker
 * sends many at once, so the connections are pooled and reused (nodemailer's pool: 5
 * connections, 100 messages each, unless the URL says otherwise) rather than one connection and
 * handshake per message. With no server configured the message is not sent: with `mailDir` it is
 * written there as an `.eml` file (the whole message, attachments included, as a mail program
 * opens it; `bms mail` lists them), otherwise to the log; either way it is reported as not sent.
 */
export function createMailer(
  smtpUrl: string | undefined,
  from: string,
  log: Logger,
  mailDir?: string,
): Mailer {
  if (!smtpUrl) {
    // nodemailer's stream transport composes the message as SMTP would send it, and only hands it back.
    const compose = mailDir ? nodemailer.createTransport({ streamTransport: true, buffer: true }) : undefined;
    return {
      async send(message) {
        if (!compose || !mailDir) {
          log.info({ mail: message }, 'notification e-mail (SMTP_URL is not set: written here, not sent)');
          return false;
        }
        const info = await compose.sendMail(nodemailerMessage(from, message));
        await mkdir(mailDir, { recursive: true });
        // The time first, so the files list in the order they were made.
        const file = path.join(
          mailDir,
          `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`,
        );
        // Written aside and renamed, so a reader (bms mail) never finds a file half written.
        await writeFile(`${file}.part`, info.message as Buffer);
        await rename(`${file}.part`, file);
        log.info(
          { to: message.to, subject: message.subject, file },
          'e-mail written to a file (SMTP_URL is not set)',
        );
        return false;
      },
      close: () => undefined,
    };
  }
  const transport = nodemailer.createTransport({ url: smtpUrl, pool: true });
  return {
    async send(message) {
      await transport.sendMail(nodemailerMessage(from, message));
      return true;
    },
    close: () => transport.close(),
  };
}
