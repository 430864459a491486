import {
  ChangeSetType,
  helper,
  OptimisticLockError,
  Utils,
  type Dictionary,
  type EntityManager,
  type EntityMetadata,
} from '@mikro-orm/core';
import { changeSubscribersOf, type RecordChange } from '../record-changes';
import { nothingToFlush } from '../tenant-transaction';
import { ConnectionTransaction } from './connection-transaction';
import { hasLifecycleHooks, isStoredScalar, updateWithNextStatement } from './deferred-writes';

/**
 * Whether an update of a record of `entityName` may be written past the unit of work
 * (`updatePastUnitOfWork`), as far as it is known before the record is read: the caller then
 * reads it as a view (detached.ts), which `manageView` makes managed, instead of through the
 * entity factory.
 */
export function mayUpdatePastUnitOfWork(em: EntityManager, entityName: string): boolean {
  return (
    em.getTransactionContext() instanceof ConnectionTransaction &&
    nothingToFlush(em) &&
    changeSubscribersOf(em) !== undefined &&
    updatedAsTheFlushWould(em.getMetadata().get(entityName))
  );
}

/**
 * Makes `view`, a record read as a view, managed as `em.find` makes a record it reads: its
 * snapshot taken as the unit of work takes it (the fields the flush compares, and the version),
 * and its place in the identity map. From then on it is any record read to be changed: a group's
 * rule that flushes midway writes it, a find of it returns it, the rules read its stored state.
 */
export function manageView(em: EntityManager, view: object): void {
  helper(view).__originalEntityData = snapshotOf(em, view) as never;
  em.getUnitOfWork().register(view);
}

/** The record's snapshot as the unit of work takes one, with its version. */
function snapshotOf(em: EntityManager, record: object): Dictionary {
  const version = em.getMetadata().get(record.constructor.name).versionProperty;
  const snapshot = em.getComparator().prepareEntity(record) as Dictionary;
  return version ? { ...snapshot, [version]: (record as Dictionary)[version] } : snapshot;
}

/**
 * Writes the changes made to `record` (managed by `manageView`) past the flush, where the record
 * is all the unit of work holds: the subscribers are handed it as a flush's one update, with the
 * fields the flush would find changed against its snapshot, and the update, by the version read,
 * goes out with the request's next statement or its COMMIT (`updateWithNextStatement`), answered
 * with that version plus one, or refused as `origin`'s with MikroORM's own `OptimisticLockError`.
 * The record then leaves the unit of work as the flush leaves a record it wrote, and the commit
 * has nothing to flush. A flush of one record was most of MikroORM's share of an update: change
 * sets for everything managed, its three events, the persister's queue and its commit.
 *
 * False where anything else is managed or queued (a group's rule read or changed another record
 * through the unit of work), or a subscriber is not a ChangeSubscriber: nothing is done, and the
 * caller flushes. Nothing changed is nothing written, as in a flush.
 */
export async function updatePastUnitOfWork(
  em: EntityManager,
  entityName: string,
  record: object,
  origin: object,
): Promise<boolean> {
  const transaction = em.getTransactionContext();
  if (!(transaction instanceof ConnectionTransaction) || !nothingToFlush(em, record)) return false;
  const subscribers = changeSubscribersOf(em);
  if (!subscribers) return false;
  const meta = em.getMetadata().get(entityName);
  const comparator = em.getComparator();
  const wrapped = helper(record);
  const before = wrapped.__originalEntityData as Dictionary;
  const changed = () =>
    comparator.diffEntities(entityName, before, comparator.prepareEntity(record)) as Dictionary;
  const payload = changed();
  if (Utils.hasObjectKeys(payload)) {
    const change: RecordChange = {
      type: ChangeSetType.UPDATE,
      entity: record,
      name: meta.className,
      meta,
      payload,
      originalEntity: before as never,
    };
    for (const subscriber of subscribers) await subscriber.onChanges({ em, changes: [change] });
    // What the subscribers changed (the audit fields), as the flush's recomputed change set has it.
    Object.assign(payload, changed());
    const row = record as Dictionary;
    const version = meta.versionProperty;
    const where = Utils.getPrimaryKeyCond(row, meta.primaryKeys) as Dictionary;
    where[version] = em.getPlatform().quoteVersionValue(row[version] as number, meta.properties[version]);
    const result = await updateWithNextStatement(em, entityName, row as { id: unknown }, origin, () =>
      em.getDriver().nativeUpdate(entityName, where, payload, {
        ctx: transaction,
        convertCustomTypes: false,
        schema: meta.schema,
      }),
    );
    if (!result.affectedRows) throw OptimisticLockError.lockFailed(record);
    if (result.row && Utils.hasObjectKeys(result.row))
      Object.assign(record, comparator.mapResult(entityName, result.row));
    wrapped.__originalEntityData = snapshotOf(em, record) as never;
  }
  em.getUnitOfWork().unsetIdentity(record);
  return true;
}

/**
 * Whether the driver's update of the changed fields (the flush's `nativeUpdate`, by primary key
 * and version) is all a flush would do for a record of `meta`: no relation, embeddable, lazy or
 * generated column, lifecycle hook, `onUpdate` value or concurrency key, and an integer version
 * of one column (which the deferred update needs: deferred-writes.ts, `deferredUpdate`).
 */
function updatedAsTheFlushWould(meta: EntityMetadata): boolean {
  if (hasLifecycleHooks(meta)) return false;
  if (meta.readonly || meta.discriminatorColumn || meta.concurrencyCheckKeys.size > 0) return false;
  const version = meta.versionProperty && meta.properties[meta.versionProperty];
  if (!version || version.runtimeType !== 'number' || version.fieldNames?.length !== 1) return false;
  return meta.props.every(
    (prop) =>
      prop.persist === false ||
      (isStoredScalar(prop) && !prop.onUpdate && !prop.lazy && !(prop.generated && !prop.primary)),
  );
}
