import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt, { type JwtPayload } from 'jsonwebtoken';
import { unauthorized } from '../errors';

/** The claims every credential must carry (decisions.md, "Credentials"). */
export interface Claims {
  sub: string;
  email: string;
  tenantId: string;
}

export interface JwtSettings {
  secret: string;
  issuer?: string;
  audience?: string;
}

/**
 * The secret as a KeyObject, made once: given a string, jsonwebtoken first tries to parse it as a
 * public key on every verification, which cost about 0.5 ms of CPU per request (see bench/).
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
  return jwt.sign({ email: claims.email, tenantId: claims.tenantId }, settings.secret, {
    algorithm: 'HS256',
    subject: claims.sub,
    expiresIn: expiresIn as jwt.SignOptions['expiresIn'],
    ...(settings.issuer ? { issuer: settings.issuer } : {}),
    ...(settings.audience ? { audience: settings.audience } : {}),
  });
}

export function verifyToken(settings: JwtSettings, token: string): Claims {
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
  const { sub, email, tenantId } = payload as Record<string, unknown>;
  if (typeof sub !== 'string' || !UUID.test(sub) || typeof tenantId !== 'string' || !UUID.test(tenantId)) {
    throw unauthorized('the credential lacks its subject or tenant');
  }
  if (typeof email !== 'string' || email.length === 0) throw unauthorized('the credential lacks its email');
  return { sub, email, tenantId };
}
