import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface Mail {
  to: string[];
  raw: string;
  parsed: ParsedMail;
}

/**
 * A real SMTP server on 127.0.0.1 that refuses the first `refuse` messages (a 451, to be tried
 * again), then keeps every message it gets, parsed.
 */
export async function startSmtp(refuse = 0) {
  const mails: Mail[] = [];
  let offered = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        offered += 1;
        if (offered <= refuse) return callback(new Error('451 try again later'));
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (parsed) => {
            mails.push({
              to: session.envelope.rcptTo.map((r) => r.address),
              raw: raw.toString('utf8'),
              parsed,
            });
            callback();
          },
          (err: Error) => callback(err),
        );
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    mails,
    to: (email: string) => mails.filter((m) => m.to.includes(email)),
    offered: () => offered,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
