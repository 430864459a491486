/**
 * API keys of a tenant's integrations (docs/security.md, "API keys"): created within the
 * creator's permissions and reach, listed without their secret, rotated and revoked.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Caller } from '../../context';
import { ApiKey } from '../../entities/api-key';
import { badRequest, forbidden, notFound } from '../../errors';
import { newApiKey } from '../../auth/api-keys';
import { isUuid } from '../../limits';
import type { CreateApiKeyInput } from './api/api-key-inputs';

/** A key with its whole secret: the answer of creation and rotation only. */
export type KeyWithSecret = ApiKey & { key: string };

export function listKeys(em: EntityManager): Promise<ApiKey[]> {
  return em.find(ApiKey, {}, { orderBy: { created: 'asc', id: 'asc' } });
}

export async function findKey(em: EntityManager, id: string): Promise<ApiKey | null> {
  return isUuid(id) ? em.findOne(ApiKey, { id }) : null;
}

async function keyOrFail(em: EntityManager, id: string): Promise<ApiKey> {
  const key = await findKey(em, id);
  if (!key) throw notFound(`API key ${id} not found`);
  return key;
}

function checkReach(creator: Caller, id: string | undefined, list: readonly string[], what: string): void {
  if (id && !creator.hasFullAccess && !list.includes(id))
    throw forbidden(`the key cannot reach ${what} ${id}: its creator does not`);
}

export async function createKey(
  em: EntityManager,
  creator: Caller,
  input: CreateApiKeyInput,
): Promise<KeyWithSecret> {
  if (creator.apiKey) throw forbidden('an API key cannot create API keys');
  const lacking = input.permissions.filter((p) => !creator.permissions.has(p));
  if (lacking.length > 0)
    throw forbidden(`the key may not hold permissions its creator lacks: ${lacking.slice(0, 10).join(', ')}`);
  if (input.expiresAt && input.expiresAt.getTime() <= Date.now())
    throw badRequest('expiresAt is in the past');
  checkReach(creator, input.subsidiaryId, creator.subsidiaryAccess, 'subsidiary');
  checkReach(creator, input.projectId, creator.projectAccess, 'project');
  const id = randomUUID();
  const { key, secretHash, hint } = newApiKey(creator.tenantId, id);
  const created = em.create(ApiKey, {
    tenantId: creator.tenantId,
    id,
    name: input.name,
    hint,
    secretHash,
    permissions: [...new Set(input.permissions)],
    subsidiaryId: input.subsidiaryId ?? null,
    projectId: input.projectId ?? null,
    expiresAt: input.expiresAt ?? null,
    creatorId: creator.userId,
  } as never);
  await em.flush();
  return Object.assign(created, { key });
}

/** A new secret for the key; the previous one is refused from the next request. */
export async function rotateKey(em: EntityManager, id: string): Promise<KeyWithSecret> {
  const found = await keyOrFail(em, id);
  if (found.revokedAt) throw badRequest('a revoked API key cannot be rotated');
  const { key, secretHash, hint } = newApiKey(found.tenantId, found.id);
  found.secretHash = secretHash;
  // An imported key's start named the tenant it was exported from.
  found.hint = hint;
  await em.flush();
  return Object.assign(found, { key });
}

/** Revokes the key (kept, for its history); revoking it again changes nothing. */
export async function revokeKey(em: EntityManager, id: string): Promise<ApiKey> {
  const found = await keyOrFail(em, id);
  found.revokedAt ??= new Date();
  await em.flush();
  return found;
}
