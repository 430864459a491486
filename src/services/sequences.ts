import type { EntityManager } from '@mikro-orm/core';
import { actorOf } from '../db/tenancy';
import { incrementSequence } from './sequence-repository';

/**
 * Gapless numbers per tenant (invoice numbers, transfer numbers). The increment is one atomic
 * upsert that locks the tenant's counter row until the surrounding transaction ends: concurrent
 * callers queue on that row, and a rolled-back transaction gives its number back, so numbers are
 * unique and consecutive. Call it inside the transaction that stores the numbered record.
 */
export async function nextNumber(em: EntityManager, name: string): Promise<number> {
  const actor = actorOf(em);
  if (!actor) throw new Error('nextNumber needs a tenant-bound EntityManager');
  if (!em.isInTransaction())
    throw new Error('nextNumber must run inside the transaction that uses the number');
  return incrementSequence(em, actor.tenantId, name);
}
