import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { MikroORM } from '@mikro-orm/core';
import { storageKeyOf, type FileBackend } from '../files/backends';
import type { Logger } from '../logger';
import { bundleArchive, exportTenant } from '../services/tenant-bundle';
import { actAsTenant, knexOf, rows } from '../services/tenant-tables';
import { IDLE_POLL_MAX_MS, pollQueue, type Periodic } from './periodic';

/**
 * The export jobs: exports a super-admin asked for over the API (`tenant_export` rows), claimed
 * with FOR UPDATE SKIP LOCKED by any process's worker (through the table's worker policy, as the
 * connection's own user with `app.worker` = 'exports'), run, with their progress recorded as they
 * go. The bundle is written under `DATA_DIR/exports/<tenant id>/<export id>` on the worker's
 * machine, and the export names it relative to DATA_DIR (the machine's own paths are not the
 * tenant's to see), where an operator picks it up (`bms tenant:import --bundle ...`: docs/operations.md), and stored as one
 * archive in the file store under `<tenant id>/<id of the run>`, where any process serves it to the
 * tenant's administrator (`GET /tenant-exports/{id}/bundle`).
 *
 * A running export holds a lease its worker renews while it works. A process that dies leaves
 * its export RUNNING with a lease that runs out; the next worker to look takes it over and runs
 * it again from the start, up to `EXPORT_ATTEMPTS` runs in all, and then marks it FAILED saying
 * so. Every write of a run names the run (`attempts`), so a process that was only stalled, and
 * whose export was taken over meanwhile, changes nothing when it wakes up.
 */
export const EXPORT_ATTEMPTS = 3;
/** The folder of DATA_DIR the bundles are written in. */
export const EXPORTS_FOLDER = 'exports';
export const EXPORT_LEASE_MS = 60_000;

export interface ExportJobOptions {
  /** How long a run holds its export without renewing the lease; renewed every third of it. */
  leaseMs?: number;
}

interface Claimed {
  tenant_id: string;
  id: string;
  attempts: number;
  /** Set when the export was taken over from a run whose lease ran out, and is not run again. */
  gaveUp?: string;
}

const lease = (ms: number) => `now() + make_interval(secs => ${Math.round(ms)}::float8 / 1000)`;

async function claim(orm: MikroORM, leaseMs: number): Promise<Claimed | null> {
  return knexOf(orm).transaction(async (trx) => {
    await trx.raw(`select set_config('app.worker', 'exports', true)`);
    const [job] = await rows<Claimed & { status: string; lease_until: Date | null }>(
      trx,
      `select tenant_id, id, status, attempts, lease_until from tenant_export
       where status = 'PENDING' or (status = 'RUNNING' and (lease_until is null or lease_until < now()))
       order by created limit 1 for update skip locked`,
    );
    if (!job) return null;
    const key = [job.tenant_id, job.id];
    if (job.status === 'RUNNING' && job.attempts >= EXPORT_ATTEMPTS) {
      const gaveUp = `the process running the export stopped without finishing it (its lease ran out${
        job.lease_until ? ` at ${new Date(job.lease_until).toISOString()}` : ''
      }), ${job.attempts} times; start a new export`;
      await trx.raw(
        `update tenant_export set status = 'FAILED', completed = now(), lease_until = null, message = ?
         where tenant_id = ? and id = ?`,
        [gaveUp, ...key],
      );
      return { ...job, gaveUp };
    }
    await trx.raw(
      `update tenant_export set status = 'RUNNING', started = now(), attempts = attempts + 1,
         lease_until = ${lease(leaseMs)} where tenant_id = ? and id = ?`,
      key,
    );
    return { tenant_id: job.tenant_id, id: job.id, attempts: job.attempts + 1 };
  });
}

/** Runs the oldest export due (pending, or running with a lapsed lease), if any; false when there was none. */
export async function runNextExport(
  orm: MikroORM,
  backend: FileBackend,
  dataDir: string,
  { leaseMs = EXPORT_LEASE_MS }: ExportJobOptions = {},
): Promise<boolean> {
  const job = await claim(orm, leaseMs);
  if (!job) return false;
  if (job.gaveUp) return true;
  // Only while this run still holds the export: one taken over meanwhile is no longer ours.
  const record = (set: string, bindings: unknown[] = []) =>
    knexOf(orm).transaction(async (trx) => {
      await actAsTenant(trx, job.tenant_id);
      const result = (await trx.raw(
        `update tenant_export set ${set} where tenant_id = ? and id = ? and status = 'RUNNING' and attempts = ?`,
        [...bindings, job.tenant_id, job.id, job.attempts] as never[],
      )) as { rowCount: number };
      return result.rowCount > 0;
    });
  // Reports and lease renewals go one after the other, never hold up the export, and a failed
  // one is tried again at the next: a lapsed lease only ever costs a second run.
  let reports: Promise<unknown> = Promise.resolve();
  const report = (set: string, bindings: unknown[] = []) => {
    reports = reports.then(() => record(set, bindings)).catch(() => undefined);
  };
  const renewal = setInterval(() => report(`lease_until = ${lease(leaseMs)}`), Math.max(10, leaseMs / 3));
  let reportedAt = 0;
  const named = path.join(EXPORTS_FOLDER, job.tenant_id, job.id);
  const bundle = path.join(dataDir, named);
  // A key of this run's own: a run that was taken over, should it wake up, touches no other's.
  const archiveKey = storageKeyOf(job.tenant_id, randomUUID());
  try {
    // What a run that died left of the bundle on this machine.
    if (job.attempts > 1) await fs.rm(bundle, { recursive: true, force: true });
    const manifest = await exportTenant(
      orm,
      backend,
      job.tenant_id,
      bundle,
      ({ done, total, what }) => {
        // The records are most of the work; the files and the archive the rest.
        const percent = Math.floor(what === 'files' ? 90 + (5 * done) / total : (90 * done) / total);
        if (Date.now() - reportedAt < 1000 && percent < 100) return;
        reportedAt = Date.now();
        report('progress = greatest(progress, ?)', [Math.min(95, percent)]);
      },
      // An administrator cannot mend the store: the export goes on without the bytes it lacks and
      // says which (the message and the manifest), and an import of it refuses them unless told.
      { skipMissingFiles: true },
    );
    const hash = createHash('sha256');
    let size = 0;
    const archive = Readable.from(
      (async function* () {
        for await (const chunk of bundleArchive(bundle) as AsyncIterable<Buffer>) {
          hash.update(chunk);
          size += chunk.length;
          yield chunk;
        }
      })(),
    );
    await backend.put(archiveKey, archive, 'application/gzip');
    clearInterval(renewal);
    await reports;
    const records = Object.values(manifest.records).reduce((n, r) => n + r.count, 0);
    const recorded = await record(
      `status = 'DONE', progress = 100, completed = now(), lease_until = null, bundle = ?, message = ?,
       archive_key = ?, archive_size = ?, archive_sha256 = ?`,
      [
        named,
        `${records} records, ${Object.keys(manifest.files).length} files${
          manifest.missingFiles
            ? `; the bytes of ${manifest.missingFiles.length} stored file(s) were missing from the file store and are left out (the manifest's missingFiles)`
            : ''
        }`,
        archiveKey,
        size,
        hash.digest('hex'),
      ],
    );
    if (!recorded) await backend.remove(archiveKey);
  } catch (err) {
    clearInterval(renewal);
    await reports;
    await backend.remove(archiveKey).catch(() => undefined);
    await record(`status = 'FAILED', completed = now(), lease_until = null, message = ?`, [
      (err as Error).message,
    ]);
  }
  return true;
}

export type ExportJobs = Periodic;

/**
 * Runs the exports that are due, in this process: looked for less often while there are none (up
 * to `maxMs` apart), and at once when this process is asked for one.
 */
export function startExportJobs(
  orm: MikroORM,
  backend: FileBackend,
  dataDir: string,
  logger: Logger,
  firstMs = 500,
  options: ExportJobOptions & { maxMs?: number } = {},
): ExportJobs {
  const polling = { firstMs, maxMs: options.maxMs ?? IDLE_POLL_MAX_MS };
  return pollQueue('exports', polling, logger, 'tenant exports failed; trying again later', async () => {
    let found = false;
    while (await runNextExport(orm, backend, dataDir, options)) found = true;
    return found;
  });
}
