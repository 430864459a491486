import { createECDH } from 'node:crypto';
import { badRequest } from '../../errors';
import { urlProblem } from '../../events/targets';

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

const refuse = (problem: string) =>
  badRequest(`token: a WEB token is the browser's PushSubscription as JSON (${problem})`);

/**
 * A WEB push token is what the browser's `PushSubscription.toJSON()` gives: `endpoint` (the push
 * service's URL for this browser) and `keys.p256dh` / `keys.auth` (what the payload is encrypted
 * for, RFC 8291). Each is checked, with a 400 naming what is wrong, and the token is stored in
 * one normal form (the same subscription sent again, its keys in another order, is the same
 * device). The endpoint is a URL the service will POST to, so it is held to the webhook rules:
 * https, no credentials, no private or loopback address (again at every delivery, after the name
 * is resolved), unless private targets are allowed.
 */
export function normalisedSubscription(token: string, allowPrivate: boolean): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(token);
  } catch {
    throw refuse('not JSON');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw refuse('not a JSON object');
  const { endpoint, expirationTime, keys } = parsed as Record<string, unknown>;
  if (typeof endpoint !== 'string' || !endpoint) throw refuse('endpoint is missing');
  const problem = urlProblem(endpoint, allowPrivate);
  if (problem) throw refuse(`endpoint: ${problem.replace(/^url /, '')}`);
  if (expirationTime !== undefined && expirationTime !== null && typeof expirationTime !== 'number')
    throw refuse('expirationTime must be a number or null');
  if (!keys || typeof keys !== 'object' || Array.isArray(keys)) throw refuse('keys is missing');
  const { p256dh, auth } = keys as Record<string, unknown>;
  if (typeof p256dh !== 'string' || !BASE64URL.test(p256dh))
    throw refuse('keys.p256dh must be base64url text');
  if (typeof auth !== 'string' || !BASE64URL.test(auth)) throw refuse('keys.auth must be base64url text');
  const point = Buffer.from(p256dh, 'base64url');
  if (point.length !== 65 || point[0] !== 4)
    throw refuse('keys.p256dh must be an uncompressed P-256 public key (65 bytes)');
  try {
    // Refuses bytes that are no point on the curve.
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    ecdh.computeSecret(point);
  } catch {
    throw refuse('keys.p256dh is not a point of P-256');
  }
  if (Buffer.from(auth, 'base64url').length !== 16) throw refuse('keys.auth must be 16 bytes');
  return JSON.stringify({ endpoint, expirationTime: expirationTime ?? null, keys: { p256dh, auth } });
}
