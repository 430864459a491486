import { ChangeSetType, Utils, type EntityManager, type EntityMetadata } from '@mikro-orm/core';
import { changeSubscribersOf, type RecordChange } from '../record-changes';
import { writesPending } from '../tenant-transaction';
import { ConnectionTransaction } from './connection-transaction';
import { hasLifecycleHooks, insertStatements, isStoredScalar, newVersion } from './deferred-writes';

/**
 * Writes new records of one entity past the unit of work: the subscribers (tenancy's stamps, the
 * history, the outbox, the notification producers) are handed them as they are a flush's change
 * sets, and the records' insert goes out with the request's next statement or its COMMIT, after
 * the rows they added, answered as `origin`'s should the database refuse it
 * (ConnectionTransaction.defer). A flush of one new record was most of MikroORM's share of a
 * create: the change sets of everything managed, the flush's three events, the insert built by
 * its query builder (bench/README.md, "The write path").
 *
 * Only where the flush would write the same: in a request's transaction, nothing else waiting to
 * be flushed (its inserts would go out after these), every subscriber a ChangeSubscriber, and
 * records of stored scalars only, none left to a database default but the version (which a new
 * row takes from its column's default, `newVersion`, as `deferredInsert` answers a flush's).
 * False otherwise, and nothing is done: the caller persists and flushes the records.
 *
 * The records stay unmanaged, as views are: the request ends with this one write (`origin` is
 * its operation's only field), and the commit's flush has nothing of them to compare.
 */
export async function createPastUnitOfWork(
  em: EntityManager,
  entityName: string,
  records: readonly object[],
  origin: object,
): Promise<boolean> {
  const transaction = em.getTransactionContext();
  if (!(transaction instanceof ConnectionTransaction) || records.length === 0) return false;
  const meta = em.getMetadata().get(entityName);
  const rows = records as Record<string, unknown>[];
  if (!rows.every((row) => writtenAsTheFlushWould(meta, row)) || writesPending(em)) return false;
  const subscribers = changeSubscribersOf(em);
  if (!subscribers) return false;
  const changes: RecordChange[] = records.map((entity) => ({
    type: ChangeSetType.CREATE,
    entity,
    name: meta.className,
    meta,
    payload: {},
    originalEntity: undefined,
  }));
  for (const subscriber of subscribers) await subscriber.onChanges({ em, changes });
  // As the flush does once its subscribers have run: a required value still missing is refused
  // by MikroORM, before the database would refuse it in other words.
  if (em.config.get('validateRequired'))
    for (const record of records) em.getValidator().validateRequired(record);
  const version = meta.versionProperty && meta.properties[meta.versionProperty];
  if (version) for (const row of rows) row[version.name] = newVersion(version);
  for (const statement of insertStatements(em, entityName, records)) transaction.defer(statement, origin);
  return true;
}

/**
 * Whether inserting every stored scalar of `values` (deferred-writes.ts, `insertStatements`)
 * writes what MikroORM's insert of the new record would: no relation, embeddable or lifecycle
 * hook, nothing computed on create, no raw SQL, and no column left to its default but the
 * version.
 */
function writtenAsTheFlushWould(meta: EntityMetadata, values: Record<string, unknown>): boolean {
  if (hasLifecycleHooks(meta)) return false;
  for (const prop of meta.props) {
    if (prop.persist === false) continue;
    if (!isStoredScalar(prop) || prop.onCreate) return false;
    const value = values[prop.name];
    if (Utils.isRawSql(value)) return false;
    if (prop.version) {
      if (newVersion(prop) === undefined || prop.runtimeType !== 'number') return false;
      continue;
    }
    if (value === undefined && (prop.defaultRaw !== undefined || prop.autoincrement || prop.generated))
      return false;
  }
  return true;
}
