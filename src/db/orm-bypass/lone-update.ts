import {
  ChangeSetType,
  helper,
  OptimisticLockError,
  ReferenceKind,
  Utils,
  type Dictionary,
  type EntityManager,
  type EntityMetadata,
} from '@mikro-orm/core';
import { changeSubscribersOf, type RecordChange } from '../record-changes';
import { nothingToFlush } from '../tenant-transaction';
import { ConnectionTransaction } from './connection-transaction';
import { updateWithNextStatement } from './deferred-writes';

/** A record's stored state as the unit of work compares it (MikroORM's snapshot, `prepareEntity`). */
export type Snapshot = Dictionary;

/**
 * Whether an update of a record of `entityName` may be written past the unit of work
 * (`updatePastUnitOfWork`), as far as it is known before the record is read: the caller then
 * reads it unmanaged, as a view (detached.ts), and takes its `snapshotOf` before changing it.
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
 * The record's snapshot, as the unit of work takes it when it reads a record; the record (a
 * view) is given it as a managed record read has it, version included, where the groups' rules
 * read the stored state before the request's change (`__originalEntityData`).
 */
export function snapshotOf(em: EntityManager, record: object): Snapshot {
  const snapshot = em.getComparator().prepareEntity(record) as Snapshot;
  const version = em.getMetadata().get(record.constructor.name).versionProperty;
  helper(record).__originalEntityData = {
    ...snapshot,
    ...(version ? { [version]: (record as Dictionary)[version] } : {}),
  } as never;
  return snapshot;
}

/** The fields of `record` changed since `before` (its snapshot), as the flush's change set has them. */
export function changedSince(
  em: EntityManager,
  entityName: string,
  record: object,
  before: Snapshot,
): Dictionary {
  const comparator = em.getComparator();
  return comparator.diffEntities(entityName, before, comparator.prepareEntity(record)) as Dictionary;
}

/**
 * Writes the changes made to `record` (unmanaged, read at `before`) past the unit of work, as a
 * lone create is written (lone-create.ts): the subscribers are handed it as a flush's one update,
 * with the fields the flush would have found changed, and the update, by the version read, goes
 * out with the request's next statement or its COMMIT (`updateWithNextStatement`), answered with
 * that version plus one, or refused as `origin`'s with MikroORM's own `OptimisticLockError`. A
 * flush of one record was most of MikroORM's share of an update: the change sets of everything
 * managed, a managed record made for it by its factory, the flush's events and its commit.
 *
 * Only where the flush would write the same: nothing else managed or waiting in the unit of
 * work (a group's `beforeSave` that changed another record puts it there), and the conditions of
 * `mayUpdatePastUnitOfWork`. False otherwise, and nothing is done: the caller writes the change
 * through the flush. Nothing changed is nothing written, as in a flush.
 */
export async function updatePastUnitOfWork(
  em: EntityManager,
  entityName: string,
  record: object,
  before: Snapshot,
  origin: object,
): Promise<boolean> {
  const transaction = em.getTransactionContext();
  if (!(transaction instanceof ConnectionTransaction) || !nothingToFlush(em)) return false;
  const subscribers = changeSubscribersOf(em);
  if (!subscribers) return false;
  const meta = em.getMetadata().get(entityName);
  const payload = changedSince(em, entityName, record, before);
  if (!Utils.hasObjectKeys(payload)) return true;
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
  Object.assign(payload, changedSince(em, entityName, record, before));
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
    Object.assign(record, em.getComparator().mapResult(entityName, result.row));
  return true;
}

/**
 * Whether the driver's update of the changed fields (the flush's `nativeUpdate`, by primary key
 * and version) is all a flush would do for a record of `meta`: no relation, embeddable, lazy or
 * generated column, lifecycle hook, `onUpdate` value or concurrency key, and an integer version
 * of one column (which the deferred update needs: deferred-writes.ts, `deferredUpdate`).
 */
function updatedAsTheFlushWould(meta: EntityMetadata): boolean {
  if (Object.values(meta.hooks).some((hooks) => hooks?.length)) return false;
  if (meta.readonly || meta.discriminatorColumn || meta.concurrencyCheckKeys.size > 0) return false;
  const version = meta.versionProperty && meta.properties[meta.versionProperty];
  if (!version || version.runtimeType !== 'number' || version.fieldNames?.length !== 1) return false;
  return meta.props.every(
    (prop) =>
      prop.persist === false ||
      (prop.kind === ReferenceKind.SCALAR &&
        prop.fieldNames?.length === 1 &&
        !prop.onUpdate &&
        !prop.lazy &&
        !(prop.generated && !prop.primary)),
  );
}
