import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * The e-mail the service kept as `.eml` files because no SMTP server is configured
 * (`DATA_DIR/outbox-mail`, src/events/mail.ts): what `bms mail` lists, oldest first, so a
 * newcomer sees what would have been sent. Each file opens in a mail program as it is.
 */
export interface KeptMail {
  file: string;
  date: string;
  to: string;
  subject: string;
  attachments: string[];
}

/** An RFC 2047 encoded word (`=?UTF-8?B?...?=`, `=?UTF-8?Q?...?=`), as nodemailer writes non-ASCII headers. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_all, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

/** The message's headers, folded lines joined, by lower-case name (the first of each). */
function headersOf(head: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, decodeWords(line.slice(colon + 1).trim()));
  }
  return headers;
}

export async function listKeptMail(dir: string): Promise<KeptMail[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.eml')).sort();
  const kept: KeptMail[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    const text = await readFile(file, 'utf8');
    const headers = headersOf(text.split(/\r?\n\r?\n/, 1)[0]);
    const attachments = [...text.matchAll(/filename\*?=(?:"([^"]*)"|([^;\s]+))/g)].map((m) =>
      decodeWords(m[1] ?? m[2]),
    );
    kept.push({
      file,
      date: headers.get('date')
        ? new Date(headers.get('date')!).toISOString()
        : (await stat(file)).mtime.toISOString(),
      to: headers.get('to') ?? '',
      subject: headers.get('subject') ?? '',
      attachments,
    });
  }
  return kept;
}
