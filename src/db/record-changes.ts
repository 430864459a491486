import {
  EventType,
  type ChangeSet,
  type EntityManager,
  type EventSubscriber,
  type FlushEventArgs,
  type UnitOfWork,
} from '@mikro-orm/core';

/**
 * One change the subscribers act on: a flush's change set, or a record created or updated past
 * the unit of work (orm-bypass/lone-create.ts, lone-update.ts), described by the same fields.
 */
export type RecordChange = Pick<
  ChangeSet<object>,
  'type' | 'entity' | 'name' | 'meta' | 'payload' | 'originalEntity'
>;

/** What a subscriber acts on: the changes, and the unit of work when a flush writes them. */
export interface Changes {
  em: EntityManager;
  changes: readonly RecordChange[];
  /**
   * The flush's unit of work. Absent for a lone write: what a subscriber adds to it then goes
   * out deferred with the request's next statement, or is persisted for the commit's flush.
   */
  uow?: UnitOfWork;
}

/**
 * A flush subscriber whose work is all in `onChanges`, per change: the kernel can then hand it a
 * lone create or update (orm-bypass/lone-create.ts, lone-update.ts) and it does what it does for
 * the same write in a flush.
 */
export abstract class ChangeSubscriber implements EventSubscriber {
  abstract onChanges(changes: Changes): void | Promise<void>;

  onFlush(args: FlushEventArgs): void | Promise<void> {
    return this.onChanges({ em: args.em, changes: args.uow.getChangeSets(), uow: args.uow });
  }
}

/** The events a subscriber may listen to and still see a lone write as it sees a flush's. */
const SEEN_ALIKE = new Set<string>([
  EventType.onInit,
  EventType.onLoad,
  EventType.onFlush,
  EventType.beforeTransactionStart,
  EventType.afterTransactionStart,
  EventType.beforeTransactionCommit,
  EventType.afterTransactionCommit,
  EventType.beforeTransactionRollback,
  EventType.afterTransactionRollback,
]);

/**
 * The subscribers of `em` when every one is a ChangeSubscriber listening to nothing a lone
 * write skips (the create, update and flush events around a flush's commit); otherwise undefined.
 */
export function changeSubscribersOf(em: EntityManager): ChangeSubscriber[] | undefined {
  const subscribers = [...em.getEventManager().getSubscribers()];
  for (const subscriber of subscribers) {
    if (!(subscriber instanceof ChangeSubscriber)) return undefined;
    for (const event of Object.values(EventType))
      if (
        !SEEN_ALIKE.has(event) &&
        typeof (subscriber as unknown as Record<string, unknown>)[event] === 'function'
      )
        return undefined;
  }
  return subscribers as ChangeSubscriber[];
}
