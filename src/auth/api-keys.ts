import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { withTenant } from '../db/tenant-transaction';
import { unauthorized } from '../errors';
import type { Caller } from '../context';
import { recordKeyUse } from './api-key-repository';
import type { CallerRow, KeyCallerRow } from './caller-repository';

/**
 * API keys as credentials: `bms_<tenant id><key id>_<secret>` (ids as 32 hex digits each, the
 * secret 32 random bytes in base64url). The prefix lets secret scanners recognise a leaked key;
 * the ids let authentication read the key in its tenant's transaction, under row-level security,
 * as it reads a user. Only the secret's SHA-256 is stored and compared, in constant time.
 */
export const API_KEY_PREFIX = 'bms_';
const KEY_PATTERN = /^bms_([0-9a-f]{32})([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;

export interface PresentedKey {
  tenantId: string;
  keyId: string;
  secret: string;
}

const uuidOf = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

/** The key's parts when `token` has an API key's shape. */
export function parseApiKey(token: string): PresentedKey | undefined {
  const match = KEY_PATTERN.exec(token);
  if (!match) return undefined;
  return { tenantId: uuidOf(match[1]), keyId: uuidOf(match[2]), secret: match[3] };
}

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** A new key for the ids: the whole key (shown once), its hash and its displayable start. */
export function newApiKey(
  tenantId: string,
  keyId: string,
): { key: string; secretHash: string; hint: string } {
  const secret = randomBytes(32).toString('base64url');
  const hint = keyHint(tenantId, keyId);
  return { key: `${hint}_${secret}`, secretHash: hashSecret(secret), hint };
}

/** The start of every key of the ids, which names them: what listings show of a key. */
export const keyHint = (tenantId: string, keyId: string): string =>
  `${API_KEY_PREFIX}${tenantId.replace(/-/g, '')}${keyId.replace(/-/g, '')}`;

/**
 * What an imported key stores in place of its secret's hash: no secret hashes to it (it is not
 * 64 hex digits), so the key is refused until it is rotated. A key's secret was given to its
 * holder by the deployment it came from, under the tenant id the key names.
 */
export const NO_SECRET = 'rotate-before-use';

/** What a caller that is an API key carries beyond its permissions. */
export interface KeyOfCaller {
  id: string;
  name: string;
  secretHash: Buffer;
  expiresAt: Date | null;
}

export interface LoadedKey {
  key: KeyOfCaller & { permissions: string[]; subsidiaryId: string | null; projectId: string | null };
  /** The creator's row, as the user statement returns it. */
  rows: CallerRow[];
}

/** Splits the key's columns from its creator's; 401 for an unknown or revoked key. */
export function loadedKey(rows: KeyCallerRow[]): LoadedKey {
  if (rows.length === 0) throw unauthorized('the API key is unknown');
  const {
    key_id,
    key_name,
    key_hash,
    key_permissions,
    key_subsidiary,
    key_project,
    key_expires,
    key_revoked,
    ...creator
  } = rows[0];
  if (key_revoked) throw unauthorized('the API key was revoked');
  const expires = key_expires ? new Date(key_expires) : null;
  return {
    key: {
      id: key_id,
      name: key_name,
      secretHash: Buffer.from(key_hash, 'hex'),
      expiresAt: expires,
      permissions: key_permissions,
      subsidiaryId: key_subsidiary ?? null,
      projectId: key_project ?? null,
    },
    rows: creator.id ? [creator] : [],
  };
}

/**
 * The key's caller: its creator's as of now, narrowed to the key's permissions and scope. A key
 * never holds the super-admin role, whatever its creator holds.
 */
export function keyCaller(creator: Readonly<Caller>, key: LoadedKey['key']): Readonly<Caller> {
  const permissions = new Set(key.permissions.filter((p) => creator.permissions.has(p)));
  const scoped = key.subsidiaryId !== null || key.projectId !== null;
  const reaches = (id: string, list: readonly string[]) => creator.hasFullAccess || list.includes(id);
  const only = (id: string | null, list: readonly string[]) => (id !== null && reaches(id, list) ? [id] : []);
  return Object.freeze({
    ...creator,
    email: creator.email,
    permissions,
    superAdmin: false,
    hasFullAccess: scoped ? false : creator.hasFullAccess,
    projectAccess: Object.freeze(scoped ? only(key.projectId, creator.projectAccess) : creator.projectAccess),
    subsidiaryAccess: Object.freeze(
      scoped ? only(key.subsidiaryId, creator.subsidiaryAccess) : creator.subsidiaryAccess,
    ),
    apiKey: Object.freeze({
      id: key.id,
      name: key.name,
      secretHash: key.secretHash,
      expiresAt: key.expiresAt,
    }),
  });
}

/** 401 unless the presented secret is the key's and the key has not expired. */
export function checkKey(caller: Readonly<Caller>, presented: PresentedKey): void {
  const key = caller.apiKey!;
  if (key.secretHash.length === 0)
    throw unauthorized('the API key was imported with its tenant: rotate it first');
  const hash = Buffer.from(hashSecret(presented.secret), 'hex');
  if (hash.length !== key.secretHash.length || !timingSafeEqual(hash, key.secretHash))
    throw unauthorized('the API key is invalid');
  if (key.expiresAt && key.expiresAt.getTime() <= Date.now()) throw unauthorized('the API key has expired');
}

/** How the actor of a key's writes is named in audit fields, events and history. */
export const keyActor = (key: { id: string; name: string }) => `api-key:${key.id}`;

/**
 * `last_used_at`, written at most once a minute per key and outside the request's transaction,
 * so using a key costs no write of its own on almost every request.
 */
const LAST_USED_EVERY_MS = 60_000;
const lastWritten = new Map<string, number>();

export function keyUsed(
  rootEm: EntityManager,
  tenantId: string,
  keyId: string,
  onError: (err: unknown) => void,
): void {
  const now = Date.now();
  if (now - (lastWritten.get(keyId) ?? 0) < LAST_USED_EVERY_MS) return;
  if (lastWritten.size >= 100_000) lastWritten.clear();
  lastWritten.set(keyId, now);
  withTenant(rootEm, { tenantId, userId: null, email: 'system' }, (em) =>
    recordKeyUse(em, keyId, new Date(now)),
  ).catch(onError);
}
