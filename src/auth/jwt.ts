import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt, { type JwtPayload } from 'jsonwebtoken';
import { unauthorized } from '../errors';

/** The claims every credential must carry (docs/conventions.md, "Credentials"). */
export interface Claims {
  sub: string;
  email: string;
  tenantId: string;
  /**
   * When the credential was issued (s since the epoch): "sign out everywhere" refuses older ones.
   * The service's own tokens carry it to the millisecond (a fraction, as RFC 7519's NumericDate
   * allows), so one issued right after a sign-out is told from one issued right before it.
   */
  iat?: number;
  /** When it expires (s since the epoch). */
  exp?: number;
  /**
   * A provider's token only: which credential it is (its `jti`, or a digest of the token), since
   * its `iat` may be a whole second, which cannot say on which side of a sign-out in that second
   * it was issued (src/auth/withdrawal.ts).
   */
  tokenId?: string;
}

export interface JwtSettings {
  secret: string;
  issuer?: string;
  audience?: string;
}

/**
 * The secret as a KeyObject, made once: given a string, jsonwebtoken first tries to parse it as a
 * public key on every verification, which was a large share of a request's CPU (bench/README.md).
 */
const keys = new Map<string, KeyObject>();
function secretKey(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret));
    keys.set(secret, key);
  }
  return key;
}

// Pinned: a token that names another algorithm (none, RS256 with the secret as a key...) fails.
const ALGORITHMS: jwt.Algorithm[] = ['HS256'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function signToken(settings: JwtSettings, claims: Claims, expiresIn: string | number = '12h'): string {
  const iat = Date.now() / 1000;
  return jwt.sign({ email: claims.email, tenantId: claims.tenantId, iat }, settings.secret, {
    algorithm: 'HS256',
    subject: claims.sub,
    // As a duration's text, jsonwebtoken rounds `exp` down to a whole second from the fractional iat.
    expiresIn: (typeof expiresIn === 'number' ? `${expiresIn}s` : expiresIn) as jwt.SignOptions['expiresIn'],
    ...(settings.issuer ? { issuer: settings.issuer } : {}),
    ...(settings.audience ? { audience: settings.audience } : {}),
  });
}

/**
 * Tokens already verified, with their claims, until they expire: a client sends the same token
 * with every request, and jsonwebtoken's verification (decoding, the HMAC, the claim checks) was
 * a measurable share of a find/{id}'s CPU (bench/README.md). Keyed by the whole token, whose every byte the
 * signature covers, and by the settings it was verified with; expiry is checked on every use.
 * Only tokens that passed are kept; the user behind one is still read afresh on every request.
 */
const VERIFIED_MAX = 10_000;
const verified = new Map<string, { settings: JwtSettings; claims: Claims; expiresAt: number }>();

/** The claims of a token already verified with these settings and not expired, if it is one. */
export function knownToken(settings: JwtSettings, token: string): Claims | undefined {
  const known = verified.get(token);
  if (known && known.settings === settings && Date.now() < known.expiresAt) return known.claims;
  return undefined;
}

export function verifyToken(settings: JwtSettings, token: string): Claims {
  const known = knownToken(settings, token);
  if (known) return known;
  const claims = verifySignature(settings, token);
  if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value as string);
  verified.set(token, { settings, claims: claims.claims, expiresAt: claims.exp * 1000 });
  return claims.claims;
}

function verifySignature(settings: JwtSettings, token: string): { claims: Claims; exp: number } {
  let payload: string | JwtPayload;
  try {
    payload = jwt.verify(token, secretKey(settings.secret), {
      algorithms: ALGORITHMS,
      ...(settings.issuer ? { issuer: settings.issuer } : {}),
      ...(settings.audience ? { audience: settings.audience } : {}),
    });
  } catch (err) {
    const reason =
      err instanceof jwt.TokenExpiredError ? 'the credential has expired' : 'the credential is invalid';
    throw unauthorized(reason);
  }
  if (typeof payload === 'string' || typeof payload.exp !== 'number') {
    throw unauthorized('the credential has no expiry');
  }
  const { sub, email, tenantId, iat } = payload as Record<string, unknown>;
  if (typeof sub !== 'string' || !UUID.test(sub) || typeof tenantId !== 'string' || !UUID.test(tenantId)) {
    throw unauthorized('the credential lacks its subject or tenant');
  }
  if (typeof email !== 'string' || email.length === 0) throw unauthorized('the credential lacks its email');
  const claims: Claims = { sub, email, tenantId, exp: payload.exp };
  if (typeof iat === 'number') claims.iat = iat;
  return { claims: Object.freeze(claims), exp: payload.exp };
}
