import type { Knex } from '@mikro-orm/postgresql';
import type { TenantExportStatus } from '../entities/tenant-export';
import { rows } from '../services/tenant-table-repository';

/**
 * The export worker's statements on `tenant_export` (src/entities/tenant-export.ts): the claim
 * (FOR UPDATE SKIP LOCKED, across tenants through the table's worker policy) and a run's writes,
 * each of which holds only while the run still owns the export (RUNNING, with the run's attempt):
 * conditional updates, not a record's read and write. The API reads and creates exports through
 * the entity.
 */

/** An export as the claim reads it. */
export interface DueExportRow {
  tenant_id: string;
  id: string;
  status: TenantExportStatus;
  attempts: number;
  lease_until: Date | null;
}

/** A run of an export: the export's key and the attempt that names the run. */
export interface ExportRun {
  tenantId: string;
  id: string;
  attempts: number;
}

/** `now()` plus a lease of `ms`. */
const lease = (ms: number) => `now() + make_interval(secs => ${Math.round(ms)}::float8 / 1000)`;

/** Makes `trx` the export worker's, which the table's worker policy admits across tenants. */
export async function actAsExportWorker(trx: Knex.Transaction): Promise<void> {
  await trx.raw(`select set_config('app.worker', 'exports', true)`);
}

/** Locks the oldest export due (pending, or running with a lapsed lease) no other worker holds. */
export async function lockDueExport(trx: Knex.Transaction): Promise<DueExportRow | undefined> {
  const [due] = await rows<DueExportRow>(
    trx,
    `select tenant_id, id, status, attempts, lease_until from tenant_export
       where status = 'PENDING' or (status = 'RUNNING' and (lease_until is null or lease_until < now()))
       order by created limit 1 for update skip locked`,
  );
  return due;
}

/** Ends a locked export as FAILED, saying why. */
export async function giveUpExport(trx: Knex.Transaction, due: DueExportRow, message: string): Promise<void> {
  await trx.raw(
    `update tenant_export set status = 'FAILED', completed = now(), lease_until = null, message = ?
       where tenant_id = ? and id = ?`,
    [message, due.tenant_id, due.id],
  );
}

/** Starts a run of a locked export, holding it for `leaseMs`: the run's attempt. */
export async function startExportRun(
  trx: Knex.Transaction,
  due: DueExportRow,
  leaseMs: number,
): Promise<ExportRun> {
  await trx.raw(
    `update tenant_export set status = 'RUNNING', started = now(), attempts = attempts + 1,
       lease_until = ${lease(leaseMs)} where tenant_id = ? and id = ?`,
    [due.tenant_id, due.id],
  );
  return { tenantId: due.tenant_id, id: due.id, attempts: due.attempts + 1 };
}

/** Applies `set` to the run's export while the run still holds it; whether it did. */
async function updateHeld(
  trx: Knex.Transaction,
  run: ExportRun,
  set: string,
  bindings: Knex.RawBinding[] = [],
): Promise<boolean> {
  const result = (await trx.raw(
    `update tenant_export set ${set} where tenant_id = ? and id = ? and status = 'RUNNING' and attempts = ?`,
    [...bindings, run.tenantId, run.id, run.attempts],
  )) as { rowCount: number };
  return result.rowCount > 0;
}

/** Holds the export another `leaseMs`. */
export const renewLease = (trx: Knex.Transaction, run: ExportRun, leaseMs: number) =>
  updateHeld(trx, run, `lease_until = ${lease(leaseMs)}`);

/** Records how far the run has come (never less than it said before). */
export const reportProgress = (trx: Knex.Transaction, run: ExportRun, percent: number) =>
  updateHeld(trx, run, 'progress = greatest(progress, ?)', [percent]);

export interface ExportDone {
  bundle: string;
  message: string;
  archiveKey: string;
  archiveSize: number;
  archiveSha256: string;
}

/** Ends the run's export as DONE, with its bundle and archive. */
export const finishExport = (trx: Knex.Transaction, run: ExportRun, done: ExportDone) =>
  updateHeld(
    trx,
    run,
    `status = 'DONE', progress = 100, completed = now(), lease_until = null, bundle = ?, message = ?,
       archive_key = ?, archive_size = ?, archive_sha256 = ?`,
    [done.bundle, done.message, done.archiveKey, done.archiveSize, done.archiveSha256],
  );

/** Ends the run's export as FAILED, saying why. */
export const failExport = (trx: Knex.Transaction, run: ExportRun, message: string) =>
  updateHeld(trx, run, `status = 'FAILED', completed = now(), lease_until = null, message = ?`, [message]);
