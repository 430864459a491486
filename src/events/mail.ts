import nodemailer from 'nodemailer';
import type { Logger } from '../logger';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The same message as HTML (digests); the text stays as its plain alternative. */
  html?: string;
  headers?: Record<string, string>;
}

export interface Mailer {
  /** True when an SMTP server accepted the message; false when it was only written to the log. */
  send(message: MailMessage): Promise<boolean>;
  close(): void;
}

/**
 * Notification e-mail through the SMTP server of `smtpUrl` (nodemailer). The worker sends many at
 * once, so the connections are pooled and reused (nodemailer's pool: 5 connections, 100 messages
 * each, unless the URL says otherwise) rather than one connection and handshake per message. With
 * no server configured the message is written to the log instead and reported as not sent.
 */
export function createMailer(smtpUrl: string | undefined, from: string, log: Logger): Mailer {
  if (!smtpUrl) {
    return {
      async send(message) {
        log.info({ mail: message }, 'notification e-mail (SMTP_URL is not set: written here, not sent)');
        return false;
      },
      close: () => undefined,
    };
  }
  const transport = nodemailer.createTransport({ url: smtpUrl, pool: true });
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
      return true;
    },
    close: () => transport.close(),
  };
}
