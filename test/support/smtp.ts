import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface Mail {
  to: string[];
  raw: string;
  parsed: ParsedMail;
}

/**
 * A real SMTP server on 127.0.0.1 that refuses the first `refuse` messages `refusing` picks by
 * their recipients (any, unless given; a 451, to be tried again), then keeps every message it
 * gets, parsed. A file's event worker also sends what earlier files of its jest worker left in
 * the database's outbox: a test that counts offers picks its own recipient.
 */
export async function startSmtp(refuse = 0, refusing: (to: string[]) => boolean = () => true) {
  const mails: Mail[] = [];
  let refused = 0;
  const offeredTo = new Map<string, number>();
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address);
        for (const address of to) offeredTo.set(address, (offeredTo.get(address) ?? 0) + 1);
        if (refused < refuse && refusing(to)) {
          refused += 1;
          return callback(new Error('451 try again later'));
        }
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (parsed) => {
            mails.push({
              to,
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
    /** How many times a message to `email` was offered, refused ones included. */
    offeredTo: (email: string) => offeredTo.get(email) ?? 0,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
