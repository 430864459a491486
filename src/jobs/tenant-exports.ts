import path from 'node:path';
import type { MikroORM } from '@mikro-orm/core';
import type { FileBackend } from '../files/backends';
import type { Logger } from '../logger';
import { exportTenant } from '../services/tenant-bundle';
import { actAsTenant, knexOf, rows } from '../services/tenant-tables';
import { runPeriodically, type Periodic } from './periodic';

/**
 * The export jobs: exports a super-admin asked for over the API (`tenant_export` rows), claimed
 * with FOR UPDATE SKIP LOCKED by any process's worker (through the table's worker policy, as the
 * connection's own user with `app.worker` = 'exports'), run, with their progress recorded as they
 * go. The bundle is written under `dir`/<tenant id>/<export id> on the worker's machine, where an
 * operator picks it up (`bms tenant:import --bundle ...`: docs/operations.md).
 */
interface Claimed {
  tenant_id: string;
  id: string;
}

async function claim(orm: MikroORM): Promise<Claimed | null> {
  return knexOf(orm).transaction(async (trx) => {
    await trx.raw(`select set_config('app.worker', 'exports', true)`);
    const [job] = await rows<Claimed>(
      trx,
      `select tenant_id, id from tenant_export where status = 'PENDING' order by created limit 1 for update skip locked`,
    );
    if (!job) return null;
    await trx.raw(
      `update tenant_export set status = 'RUNNING', started = now() where tenant_id = ? and id = ?`,
      [job.tenant_id, job.id],
    );
    return job;
  });
}

/** Runs the oldest pending export, if any; false when there was none. */
export async function runNextExport(orm: MikroORM, backend: FileBackend, dir: string): Promise<boolean> {
  const job = await claim(orm);
  if (!job) return false;
  const record = (set: string, bindings: unknown[] = []) =>
    knexOf(orm).transaction(async (trx) => {
      await actAsTenant(trx, job.tenant_id);
      await trx.raw(`update tenant_export set ${set} where tenant_id = ? and id = ?`, [
        ...bindings,
        job.tenant_id,
        job.id,
      ] as never[]);
    });
  // Reports go one after the other, never more than one a second, and never hold up the export.
  let reports: Promise<unknown> = Promise.resolve();
  let reportedAt = 0;
  const bundle = path.join(dir, job.tenant_id, job.id);
  try {
    const manifest = await exportTenant(orm, backend, job.tenant_id, bundle, ({ done, total, what }) => {
      // The records are most of the work; the files the rest.
      const percent = Math.floor(what === 'files' ? 90 + (10 * done) / total : (90 * done) / total);
      if (Date.now() - reportedAt < 1000 && percent < 100) return;
      reportedAt = Date.now();
      reports = reports.then(() => record('progress = greatest(progress, ?)', [Math.min(99, percent)]));
    });
    await reports;
    const records = Object.values(manifest.records).reduce((n, r) => n + r.count, 0);
    await record(`status = 'DONE', progress = 100, completed = now(), bundle = ?, message = ?`, [
      bundle,
      `${records} records, ${Object.keys(manifest.files).length} files`,
    ]);
  } catch (err) {
    await reports.catch(() => undefined);
    await record(`status = 'FAILED', completed = now(), message = ?`, [(err as Error).message]);
  }
  return true;
}

export type ExportJobs = Periodic;

export function startExportJobs(
  orm: MikroORM,
  backend: FileBackend,
  dir: string,
  logger: Logger,
  intervalMs = 2000,
): ExportJobs {
  return runPeriodically(intervalMs, logger, 'tenant exports failed; trying again later', async () => {
    while (await runNextExport(orm, backend, dir));
  });
}
