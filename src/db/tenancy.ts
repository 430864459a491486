import { randomUUID } from 'node:crypto';
import type { EntityManager, EventSubscriber, FlushEventArgs } from '@mikro-orm/core';
import { EventType, type Event } from '../entities/event';
import { Audited, TenantScoped } from '../entities/tenant-scoped';

/**
 * Tenancy and audit, enforced once for every entity rather than per resolver:
 * - the `tenant` filter adds `tenant_id = <caller's tenant>` to every find, count, update and
 *   delete; a fork without the parameter fails instead of reading across tenants;
 * - the subscriber stamps inserts with the caller's tenant (whatever a body said), sets the
 *   audit fields from the caller, and appends CREATE / UPDATE / STATUS_CHANGE events.
 */
export const TENANT_FILTER = 'tenant';

/** Who is writing through an EntityManager fork (set per request, read by the subscriber). */
export interface Actor {
  tenantId: string;
  userId: string | null;
  email: string;
}

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

export function newEvent(type: EventType, authorId: string | null, description: string | null): Event {
  return { id: randomUUID(), type, date: new Date().toISOString(), authorId, description };
}

/** Properties whose change is bookkeeping, not an edit a user made. */
const BOOKKEEPING = new Set(['updated', 'updatedBy', 'version', 'events', 'created', 'createdBy']);

export class TenancySubscriber implements EventSubscriber {
  onFlush(args: FlushEventArgs): void {
    const actor = actorOf(args.em);
    const uow = args.uow;
    for (const cs of uow.getChangeSets()) {
      const entity = cs.entity as unknown;
      if (!(entity instanceof TenantScoped)) continue;
      const now = new Date();
      if (cs.type === 'create') {
        if (!actor) throw new Error(`insert of ${cs.name} without an actor`);
        entity.tenantId = actor.tenantId;
        entity.created = now;
        entity.updated = now;
        entity.createdBy = actor.email;
        entity.updatedBy = actor.email;
        if (entity instanceof Audited && entity.events.length === 0) {
          entity.events = [newEvent(EventType.CREATE, actor.userId, `Created ${cs.name}`)];
        }
        uow.recomputeSingleChangeSet(entity);
      } else if (cs.type === 'update') {
        if (!actor) throw new Error(`update of ${cs.name} without an actor`);
        const changed = Object.keys(cs.payload).filter((k) => !BOOKKEEPING.has(k));
        if (changed.length === 0) continue;
        entity.updated = now;
        entity.updatedBy = actor.email;
        if (entity instanceof Audited) {
          const events = [...entity.events];
          const before = cs.originalEntity as Record<string, unknown> | undefined;
          if (changed.includes('status') && before) {
            events.push(
              newEvent(
                EventType.STATUS_CHANGE,
                actor.userId,
                `${before.status ?? 'null'} -> ${(entity as any).status}`,
              ),
            );
          }
          const others = changed.filter((k) => k !== 'status');
          if (others.length > 0) {
            events.push(newEvent(EventType.UPDATE, actor.userId, `Updated ${others.join(', ')}`));
          }
          entity.events = events;
        }
        uow.recomputeSingleChangeSet(entity);
      }
    }
  }
}
