import type { MikroORM } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/postgresql';
import { isStorageKey, type FileBackend } from '../files/backends';
import { actAsTenant, tablesKeyedByTenant, tenantTables, knexOf } from './tenant-table-repository';
import {
  actAsPurgeWorker,
  cancelRemoval,
  deleteKeyedRow,
  deleteTenantRows,
  dueForRemoval,
  lockIfDue,
  scheduleRemoval,
  storedObjectKeys,
  type TenantStateRow,
} from './tenant-repository';

/**
 * A tenant's end (docs/operations.md, "Tenant life cycle"): deleted, it is disabled at once (its
 * users are refused, its webhooks and e-mails wait) and kept for a grace period during which it
 * can be brought back; once the period is over, every row of every tenant table and every stored
 * file of the tenant is removed.
 */
export const DEFAULT_GRACE_DAYS = 30;

export interface TenantState {
  tenantId: string;
  name: string;
  active: boolean;
  deleteAfter: string | null;
}

const stateOf = (r: TenantStateRow): TenantState => ({
  tenantId: r.id,
  name: r.name,
  active: r.active,
  deleteAfter: r.delete_after === null ? null : new Date(r.delete_after).toISOString(),
});

/** Changes the tenant's row as `change` does; `missing` when no row changed. */
function updateTenant(
  orm: MikroORM,
  tenantId: string,
  change: (trx: Knex.Transaction) => Promise<TenantStateRow | undefined>,
  missing: string,
): Promise<TenantState> {
  return knexOf(orm).transaction(async (trx) => {
    await actAsTenant(trx, tenantId);
    const row = await change(trx);
    if (!row) throw new Error(missing);
    return stateOf(row);
  });
}

/** Disables the tenant and schedules its removal `graceMs` from now. */
export const requestDeletion = (orm: MikroORM, tenantId: string, graceMs: number) =>
  updateTenant(orm, tenantId, (trx) => scheduleRemoval(trx, tenantId, graceMs), `no tenant ${tenantId}`);

/** Brings back a tenant deleted but still in its grace period: active again, nothing lost. */
export const cancelDeletion = (orm: MikroORM, tenantId: string) =>
  updateTenant(
    orm,
    tenantId,
    (trx) => cancelRemoval(trx, tenantId),
    `tenant ${tenantId} is not waiting for its deletion: nothing to bring back`,
  );

export interface Removed {
  tenantId: string;
  rows: number;
  files: number;
}

/**
 * Removes every row and stored file of one tenant, its own row last. The files go first: a
 * removal that fails halfway leaves rows that a second run removes, never rows naming bytes that
 * are gone without a way to find the rest.
 */
export async function removeTenant(
  orm: MikroORM,
  backend: FileBackend,
  tenantId: string,
): Promise<Removed | null> {
  const knex = knexOf(orm);
  const keys = await knex.transaction(async (trx) => {
    await actAsTenant(trx, tenantId);
    // Brought back since it was found due (tenant:undelete): it stays.
    if (!(await lockIfDue(trx, tenantId))) return null;
    const tables = (await tenantTables(trx)).map((t) => t.name);
    // Stored files, and the archives of the tenant's exports (kept in the same store).
    const found = await storedObjectKeys(trx, tenantId, tables);
    // Only the tenant's own objects: a row naming another key (written before imports made every
    // key themselves) must not take another tenant's bytes, or a path outside the store, with it.
    return found.filter((key) => isStorageKey(key, tenantId));
  });
  if (keys === null) return null;
  for (const key of keys) await backend.remove(key);
  const removed = await knex.transaction(async (trx) => {
    await actAsTenant(trx, tenantId);
    let count = 0;
    for (const table of (await tenantTables(trx)).reverse())
      count += await deleteTenantRows(trx, table.name, tenantId);
    // The tenant's own row first: deleting it bumps the tenant's caller version (a trigger), which
    // must then go too.
    const keyed = (await tablesKeyedByTenant(trx)).sort(
      (a, b) => Number(b === 'tenant') - Number(a === 'tenant'),
    );
    for (const table of keyed) count += await deleteKeyedRow(trx, table, tenantId);
    return count;
  });
  return { tenantId, rows: removed, files: keys.length };
}

/** Removes every tenant whose grace period has ended (all of them, or the one named). */
export async function removeDue(orm: MikroORM, backend: FileBackend, tenantId?: string): Promise<Removed[]> {
  // In a transaction, as every statement here: the embedded database's socket keeps a
  // transaction's statements together, never those of separate statements of several clients.
  const due = await knexOf(orm).transaction(async (trx) => {
    // Across tenants, as the purge job: its policy on `tenant` admits this transaction (never the
    // application role's).
    await actAsPurgeWorker(trx);
    return dueForRemoval(trx, tenantId);
  });
  const done: Removed[] = [];
  for (const id of due) {
    const removed = await removeTenant(orm, backend, id);
    if (removed) done.push(removed);
  }
  return done;
}
