import { EventType, TransactionEventBroadcaster, type EntityManager } from '@mikro-orm/core';
import { BEGIN, ConnectionTransaction, type QueryConfig } from './orm-bypass/connection-transaction';
import { actorOf, forkFor, type Actor } from './tenancy';

/**
 * The database role request transactions run as: not the owner of any table, unable to bypass
 * row-level security. See src/migrations/Migration20261122000001_rls.ts.
 */
export const APP_ROLE = 'bms_app';

/** A statement with bound parameters, or a text without any. */
export type Statement = QueryConfig | string;

const asConfig = (statement: Statement): QueryConfig =>
  typeof statement === 'string' ? { text: statement } : statement;

/**
 * Opens a transaction on `em` that runs as the application role with `tenantId` as the row-level
 * security tenant. Both settings are transaction-local: they end with the commit or rollback, so
 * a pooled connection never carries a tenant into its next use. BEGIN, the settings and `then`,
 * a statement that needs them (authentication's user), go in one round trip; `then`'s rows are
 * returned. If any fails, the transaction is rolled back before the error goes on.
 */
export async function beginTenantTransaction(
  em: EntityManager,
  tenantId: string,
  then?: Statement,
): Promise<Record<string, unknown>[]> {
  return (await begin(em, settingsStatement(tenantId, false), then)).rows;
}

/**
 * The same, and the settings' round trip also reads the tenant's caller version (see
 * auth/caller-cache.ts): null when the tenant has none. It is read before the role changes,
 * as the connection's own user: the application role may read only its tenant's row, and the
 * tenant's id is explicit.
 */
export async function beginCallerTransaction(
  em: EntityManager,
  tenantId: string,
  then?: Statement,
): Promise<{ callerVersion: string | null; rows: Record<string, unknown>[] }> {
  const { settings, rows } = await begin(em, settingsStatement(tenantId, true), then);
  return { callerVersion: callerVersionOf(settings), rows };
}

/**
 * The same transaction, opened without a round trip of its own: BEGIN and the settings go to the
 * database with the request's first statement (ConnectionTransaction.open). Before the
 * transaction ends, `current` is asked whether the caller version they read is the one the
 * request relied on (endTenantTransaction); if not, the request's work is rolled back and
 * StaleCaller thrown, for the request to be run again.
 */
export async function openCallerTransaction(
  em: EntityManager,
  tenantId: string,
  current: (callerVersion: string | null) => boolean | Promise<boolean>,
): Promise<void> {
  const transaction = await ConnectionTransaction.open(em, [BEGIN, settingsStatement(tenantId, true)], {
    first: [settingsStatement(tenantId, true, true)],
    again: [settingsStatement(tenantId, false, true)],
    block: [settingsStatement(tenantId, false)],
  });
  transaction.check = async () => current(callerVersionOf((await transaction.began())[1] ?? []));
  em.setTransactionContext(transaction);
}

/**
 * A request ran with a remembered caller that had changed by then (openCallerTransaction): its
 * work was rolled back, and it must be run again with the caller read afresh.
 */
export class StaleCaller extends Error {
  constructor() {
    super('the caller changed while the request ran; it must run again');
  }
}

function callerVersionOf(settings: Record<string, unknown>[]): string | null {
  const version = settings[0]?.caller_version;
  return version === null || version === undefined ? null : String(version);
}

// The same texts for every tenant, so each connection prepares each once.
const SETTINGS = `set_config('role', '${APP_ROLE}', true), set_config('app.tenant_id', $1::text, true)`;
const READ_ONLY = `, set_config('transaction_read_only', 'on', true)`;
const CALLER_VERSION = `(select v.version from caller_version v where v.id = $2::uuid) as caller_version`;

function settingsStatement(tenantId: string, withCallerVersion: boolean, readOnly = false): QueryConfig {
  const flags = readOnly ? READ_ONLY : '';
  return withCallerVersion
    ? { text: `select ${CALLER_VERSION}, ${SETTINGS}${flags}`, values: [tenantId, tenantId] }
    : { text: `select ${SETTINGS}${flags}`, values: [tenantId] };
}

/**
 * Declares that the request's work only reads (a query), before it sends anything: its
 * statements then go without a transaction block, each with the settings in one round trip
 * (ConnectionTransaction.readOnly). Should it write after all, it turns into a block there.
 */
export function onlyReads(em: EntityManager): void {
  const transaction = em.getTransactionContext();
  if (transaction instanceof ConnectionTransaction) transaction.readOnly();
}

async function begin(
  em: EntityManager,
  settings: QueryConfig,
  then: Statement | undefined,
): Promise<{ settings: Record<string, unknown>[]; rows: Record<string, unknown>[] }> {
  const transaction = await ConnectionTransaction.open(
    em,
    then ? [BEGIN, settings, asConfig(then)] : [BEGIN, settings],
  );
  em.setTransactionContext(transaction);
  try {
    const [, settingsRows, rows] = await transaction.began();
    return { settings: settingsRows ?? [], rows: rows ?? [] };
  } catch (err) {
    await endTenantTransaction(em, false);
    throw err;
  }
}

/**
 * Makes the check a transaction opened on a remembered caller carries (openCallerTransaction),
 * once: true when there is none or the caller is current; false, with the transaction rolled
 * back, when it had changed. A failing check (the settings failed, and everything after them)
 * rolls back too and throws.
 */
export async function callerStillCurrent(em: EntityManager): Promise<boolean> {
  const transaction = em.getTransactionContext();
  if (!(transaction instanceof ConnectionTransaction) || !transaction.check) return true;
  const check = transaction.check;
  transaction.check = undefined;
  let current: boolean;
  try {
    current = await check();
  } catch (err) {
    await em.rollback();
    throw err;
  }
  if (!current) await em.rollback();
  return current;
}

/**
 * Drops that check: for an answer that did not depend on the caller's permissions (a document
 * that was never executed).
 */
export function forgoCallerCheck(em: EntityManager): void {
  const transaction = em.getTransactionContext();
  if (transaction instanceof ConnectionTransaction) transaction.check = undefined;
}

/**
 * Commits (or rolls back) the transaction a request opened, if it is still open. A transaction
 * that relied on a remembered caller checks it first: when it has changed, nothing is kept and
 * StaleCaller is thrown, whether the request meant to commit or not (its answer, an error
 * included, was decided with permissions that no longer hold).
 */
export async function endTenantTransaction(em: EntityManager, commit: boolean): Promise<void> {
  if (!em.isInTransaction()) return;
  if (!(await callerStillCurrent(em))) throw new StaleCaller();
  if (!commit) return em.rollback();
  try {
    if (nothingToFlush(em)) await commitWithoutFlush(em);
    else await em.commit();
  } catch (err) {
    // A failed flush or COMMIT leaves MikroORM's context in place; what remains is rolled back
    // (nothing, if the COMMIT itself failed) so the request holds no transaction after this.
    if (em.isInTransaction()) await em.rollback().catch(() => undefined);
    throw err;
  }
}

/**
 * True when the unit of work holds nothing a flush could write: no entity managed (a query reads
 * views, which it never manages) but `except`, none queued to persist or remove. The flush would
 * then compute no change set (of `except`, at most), and the subscribers (tenancy, outbox) act
 * only on change sets.
 */
export function nothingToFlush(em: EntityManager, except?: object): boolean {
  if (writesPending(em)) return false;
  for (const managed of em.getUnitOfWork(false).getIdentityMap()) if (managed !== except) return false;
  return true;
}

/** Whether the unit of work holds records queued to persist or remove, or collections to write. */
export function writesPending(em: EntityManager): boolean {
  const uow = em.getUnitOfWork(false);
  return (
    uow.getPersistStack().size > 0 ||
    uow.getRemoveStack().size > 0 ||
    uow.getOrphanRemoveStack().size > 0 ||
    uow.getCollectionUpdates().length > 0 ||
    uow.getExtraUpdates().size > 0
  );
}

/**
 * em.commit() without its flush; the transaction events go out as em.commit sends them, to the
 * subscribers that listen for them. A flush with nothing to write still dispatches three flush
 * events to every subscriber, about two dozen promises.
 */
async function commitWithoutFlush(em: EntityManager): Promise<void> {
  const events = listensToCommits(em) ? new TransactionEventBroadcaster(em) : undefined;
  await em.getConnection('write').commit(em.getTransactionContext(), events);
  em.resetTransactionContext();
}

const COMMIT_EVENTS = [EventType.beforeTransactionCommit, EventType.afterTransactionCommit];

function listensToCommits(em: EntityManager): boolean {
  for (const subscriber of em.getEventManager().getSubscribers())
    if (COMMIT_EVENTS.some((event) => event in subscriber)) return true;
  return false;
}

/** Runs `work` for `actor` in a tenant transaction of its own: for work outside a request (jobs, tools). */
export async function withTenant<R>(
  rootEm: EntityManager,
  actor: Actor,
  work: (em: EntityManager) => Promise<R>,
): Promise<R> {
  const em = forkFor(rootEm, actor);
  await beginTenantTransaction(em, actor.tenantId);
  try {
    const result = await work(em);
    await em.commit();
    return result;
  } catch (err) {
    await em.rollback();
    throw err;
  }
}

/** Runs `work` in a tenant transaction (the caller of a module that takes one decides how). */
export type InTenant = <R>(work: (em: EntityManager) => Promise<R>) => Promise<R>;

/**
 * What runs work item by item as a tenant, written as `writer` (a job's name): in `em`'s own
 * tenant transaction when it is in one for `tenantId` (all of it then commits together),
 * otherwise in a transaction of its own each time (a scheduled job with `ownTransactions`).
 */
export function tenantWork(em: EntityManager, tenantId: string, writer: string): InTenant {
  const bound = em.isInTransaction() && actorOf(em)?.tenantId === tenantId;
  return <R>(work: (t: EntityManager) => Promise<R>): Promise<R> =>
    bound ? work(em) : withTenant(em, { tenantId, userId: null, email: writer }, work);
}
