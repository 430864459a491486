import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';

/**
 * The signing secret: JWT_SECRET when set (required with DATABASE_URL or in production, see
 * config.ts); in embedded mode without one, a random secret generated once and kept under
 * DATA_DIR, so tokens survive restarts and no secret is ever a constant in the code.
 */
export function resolveJwtSecret(config: Config): string {
  if (config.jwtSecret) return config.jwtSecret;
  const file = path.join(config.dataDir, 'jwt-secret');
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (Buffer.byteLength(existing) >= 32) return existing;
  } catch {
    // first start: generate below
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  try {
    fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch {
    // another process wrote it first: use theirs
    return fs.readFileSync(file, 'utf8').trim();
  }
}
