import type { Knex } from '@mikro-orm/postgresql';
import { quoteIdent, rows } from './tenant-table-repository';

/**
 * The tenant life cycle's and the bundles' statements on a tenant's own row (`tenant`) and on
 * every row of a tenant: the command line's state changes, the purge's lock and bulk deletes, and
 * the lookups across tenants an import makes. They run on a knex transaction of the database's
 * owner, bound to the tenant (`actAsTenant`) or named as the purge worker.
 */

/** A tenant's state, as the life cycle's updates return it. */
export interface TenantStateRow {
  id: string;
  name: string;
  active: boolean;
  delete_after: Date | null;
}

/** Updates the tenant's row as `set` says, where `where` holds; the row, if one did. */
async function updateTenant(
  trx: Knex.Transaction,
  tenantId: string,
  set: string,
  where = '',
  bindings: Knex.RawBinding[] = [],
): Promise<TenantStateRow | undefined> {
  const [row] = await rows<TenantStateRow>(
    trx,
    `update tenant set ${set}, updated = now(), updated_by = 'cli'
       where id = ? ${where} returning id, name, active, delete_after`,
    [...bindings, tenantId],
  );
  return row;
}

/** Disables the tenant and schedules its removal `graceMs` from now. */
export const scheduleRemoval = (trx: Knex.Transaction, tenantId: string, graceMs: number) =>
  updateTenant(
    trx,
    tenantId,
    'active = false, delete_after = now() + make_interval(secs => ?::float8 / 1000)',
    '',
    [graceMs],
  );

/** Active again, and no longer to be removed, if it was to be. */
export const cancelRemoval = (trx: Knex.Transaction, tenantId: string) =>
  updateTenant(trx, tenantId, 'active = true, delete_after = null', 'and delete_after is not null');

/** Locks the tenant's row if its removal is due (false when it is not, or brought back). */
export async function lockIfDue(trx: Knex.Transaction, tenantId: string): Promise<boolean> {
  const due = await rows(trx, 'select 1 from tenant where id = ? and delete_after <= now() for update', [
    tenantId,
  ]);
  return due.length > 0;
}

/**
 * The keys of the tenant's objects in the file store, as its rows name them: its stored files,
 * and its exports' archives. `tables` are the tenant tables there are (a table not yet made by a
 * migration is not asked).
 */
export async function storedObjectKeys(
  trx: Knex.Transaction,
  tenantId: string,
  tables: readonly string[],
): Promise<string[]> {
  const queries = [
    tables.includes('stored_file') && 'select storage_key as key from stored_file where tenant_id = ?',
    tables.includes('tenant_export') &&
      'select archive_key as key from tenant_export where tenant_id = ? and archive_key is not null',
  ].filter((q): q is string => !!q);
  const found: string[] = [];
  for (const query of queries)
    found.push(...(await rows<{ key: string }>(trx, query, [tenantId])).map((r) => r.key));
  return found;
}

/** Deletes every row of the tenant in a tenant table; how many. */
export async function deleteTenantRows(
  trx: Knex.Transaction,
  table: string,
  tenantId: string,
): Promise<number> {
  const result = (await trx.raw(`delete from ${quoteIdent(table)} where tenant_id = ?`, [tenantId])) as {
    rowCount: number;
  };
  return result.rowCount;
}

/** Deletes the tenant's row of a table keyed by the tenant's id (the tenant, its counters); how many. */
export async function deleteKeyedRow(
  trx: Knex.Transaction,
  table: string,
  tenantId: string,
): Promise<number> {
  const result = (await trx.raw(`delete from ${quoteIdent(table)} where id = ?`, [tenantId])) as {
    rowCount: number;
  };
  return result.rowCount;
}

/**
 * Makes `trx` the purge job's: its policy on `tenant` admits this transaction across tenants
 * (never the application role's).
 */
export async function actAsPurgeWorker(trx: Knex.Transaction): Promise<void> {
  await trx.raw(`select set_config('app.worker', 'tenant-purge', true)`);
}

/** The tenants whose grace period has ended (the one named, if it has), the longest over first. */
export async function dueForRemoval(trx: Knex.Transaction, tenantId?: string): Promise<string[]> {
  const due = await rows<{ id: string }>(
    trx,
    `select id from tenant where delete_after is not null and delete_after <= now() ${tenantId ? 'and id = ?' : ''} order by delete_after`,
    tenantId ? [tenantId] : [],
  );
  return due.map((r) => r.id);
}

/** The tenant's id and name, when `trx` can see it. */
export async function tenantNamed(
  trx: Knex.Transaction,
  tenantId: string,
): Promise<{ id: string; name: string } | undefined> {
  const [tenant] = await rows<{ id: string; name: string }>(trx, 'select id, name from tenant where id = ?', [
    tenantId,
  ]);
  return tenant;
}

/** Whether a tenant has this name (names are unique whatever their case), across tenants. */
export async function tenantNameTaken(trx: Knex.Transaction, name: string): Promise<boolean> {
  const taken = await rows(trx, `select 1 from tenant where lower(name) = lower(?) limit 1`, [name]);
  return taken.length > 0;
}
