import type { EntityManager } from '@mikro-orm/core';
import { BOOKKEEPING, TenantScoped } from '../entities/tenant-scoped';
import type { Actor } from './actor';
import { ChangeSubscriber, type Changes } from './record-changes';

/**
 * Tenancy and audit, enforced once for every entity rather than per resolver:
 * - the `tenant` filter adds `tenant_id = <caller's tenant>` to every find, count, update and
 *   delete; a fork without the parameter fails instead of reading across tenants;
 * - the subscriber stamps inserts with the caller's tenant (whatever a body said) and sets the
 *   audit fields from the caller; the history's subscriber (history/recorder.ts), which the
 *   composition runs next, records the flush's history with those stamps.
 */
export const TENANT_FILTER = 'tenant';

export type { Actor } from './actor';

/**
 * The actor travels in the tenant filter's parameters: MikroORM copies them into every fork
 * (transactional() included), so whoever flushes through any fork of a request is known.
 */
interface TenantParams {
  tenantId: string;
  actor: Actor;
}

/** A fork of `em` that reads and writes as `actor`, within `actor.tenantId` only. */
export function forkFor(em: EntityManager, actor: Actor): EntityManager {
  const fork = em.fork({ clear: true, useContext: false });
  setActor(fork, actor);
  return fork;
}

/** Re-binds a fork to another actor of the same tenant (the user as stored, once authenticated). */
export function setActor(em: EntityManager, actor: Actor): void {
  em.setFilterParams(TENANT_FILTER, { tenantId: actor.tenantId, actor } satisfies TenantParams);
}

export function actorOf(em: EntityManager): Actor | undefined {
  return (em.getFilterParams(TENANT_FILTER) as TenantParams | undefined)?.actor;
}

export function tenantFilter(entityNames: string[]) {
  return {
    [TENANT_FILTER]: {
      cond: (args: { tenantId?: string }) => {
        if (!args.tenantId) throw new Error('tenant filter used without a tenant');
        return { tenantId: args.tenantId };
      },
      entity: entityNames,
      default: true,
      args: true,
    },
  };
}

/** Records being inserted again by a restore: their entry is a RESTORE, not a CREATE. */
const restoring = new WeakSet<object>();

export function markRestore(record: object): void {
  restoring.add(record);
}

/** Whether `record` is being restored (its creation time and author stay those it had). */
export const isRestore = (record: object): boolean => restoring.has(record);

/** Whether `record` was being restored, forgetting it: its flush is recording it now. */
export function takeRestore(record: object): boolean {
  const restored = restoring.has(record);
  restoring.delete(record);
  return restored;
}

export class TenancySubscriber extends ChangeSubscriber {
  onChanges({ em, changes, uow }: Changes): void {
    const actor = actorOf(em);
    for (const cs of changes) {
      const entity = cs.entity as unknown;
      if (!(entity instanceof TenantScoped)) continue;
      const now = new Date();
      if (cs.type === 'create') {
        if (!actor) throw new Error(`insert of ${cs.name} without an actor`);
        entity.tenantId = actor.tenantId;
        if (!isRestore(entity) || !entity.created) {
          entity.created = now;
          entity.createdBy = actor.email;
        }
        entity.updated = now;
        entity.updatedBy = actor.email;
        uow?.recomputeSingleChangeSet(entity);
      } else if (cs.type === 'update') {
        if (!actor) throw new Error(`update of ${cs.name} without an actor`);
        const changed = Object.keys(cs.payload).filter((k) => !BOOKKEEPING.has(k));
        if (changed.length === 0) continue;
        entity.updated = now;
        entity.updatedBy = actor.email;
        uow?.recomputeSingleChangeSet(entity);
      }
    }
  }
}
