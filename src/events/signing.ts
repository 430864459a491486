import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new signing secret in the Standard Webhooks form: `whsec_` and 24 random bytes in base64. */
export const newSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

/**
 * The key of a `whsec_` secret: the base64 after the prefix, as standardwebhooks decodes it. The
 * service only ever signs with secrets newSecret made; an empty key is refused as the library
 * refuses it.
 */
function keyOf(secret: string): Buffer {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  if (key.length === 0) throw new Error("Secret can't be empty.");
  return key;
}

/**
 * One Standard Webhooks signature: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`
 * (UTF-8) under the secret's key. Signed with node:crypto rather than the `standardwebhooks`
 * package, whose `sign` hashes in JavaScript (fast-sha256) and decodes the secret at every
 * delivery: that was the worker's largest own cost per delivery after its socket writes
 * (bench/README.md, "Events: claiming and draining"). The package stays the tests' independent
 * verifier of this format.
 */
function signature(secret: string, id: string, timestamp: string, body: string): string {
  return `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * The Standard Webhooks headers of one delivery. `secrets` holds the current secret and, during
 * a rotation's grace period, the previous one: `webhook-signature` then carries both signatures,
 * space-separated, and a receiver holding either secret verifies the message.
 */
export function signedHeaders(
  secrets: readonly string[],
  id: string,
  at: Date,
  body: string,
): Record<string, string> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  return {
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': secrets.map((s) => signature(s, id, timestamp, body)).join(' '),
  };
}
