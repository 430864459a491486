import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { MikroORM } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/postgresql';
import { storageKeyOf, type FileBackend } from '../files/backends';
import type { Logger } from '../logger';
import { bundleArchive, exportTenant } from '../services/tenant-bundle';
import { actAsTenant, knexOf } from '../services/tenant-table-repository';
import { IDLE_POLL_MAX_MS, pollQueue, type Periodic } from './periodic';
import {
  actAsExportWorker,
  failExport,
  finishExport,
  giveUpExport,
  lockDueExport,
  renewLease,
  reportProgress,
  startExportRun,
  type ExportRun,
} from './tenant-export-repository';

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

interface Claimed extends ExportRun {
  /** Set when the export was taken over from a run whose lease ran out, and is not run again. */
  gaveUp?: string;
}

async function claim(orm: MikroORM, leaseMs: number): Promise<Claimed | null> {
  return knexOf(orm).transaction(async (trx) => {
    await actAsExportWorker(trx);
    const due = await lockDueExport(trx);
    if (!due) return null;
    if (due.status === 'RUNNING' && due.attempts >= EXPORT_ATTEMPTS) {
      const gaveUp = `the process running the export stopped without finishing it (its lease ran out${
        due.lease_until ? ` at ${new Date(due.lease_until).toISOString()}` : ''
      }), ${due.attempts} times; start a new export`;
      await giveUpExport(trx, due, gaveUp);
      return { tenantId: due.tenant_id, id: due.id, attempts: due.attempts, gaveUp };
    }
    return startExportRun(trx, due, leaseMs);
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
  const record = (write: (trx: Knex.Transaction, run: ExportRun) => Promise<boolean>) =>
    knexOf(orm).transaction(async (trx) => {
      await actAsTenant(trx, job.tenantId);
      return write(trx, job);
    });
  // Reports and lease renewals go one after the other, never hold up the export, and a failed
  // one is tried again at the next: a lapsed lease only ever costs a second run.
  let reports: Promise<unknown> = Promise.resolve();
  const report = (write: (trx: Knex.Transaction, run: ExportRun) => Promise<boolean>) => {
    reports = reports.then(() => record(write)).catch(() => undefined);
  };
  const renewal = setInterval(
    () => report((trx, run) => renewLease(trx, run, leaseMs)),
    Math.max(10, leaseMs / 3),
  );
  let reportedAt = 0;
  const named = path.join(EXPORTS_FOLDER, job.tenantId, job.id);
  const bundle = path.join(dataDir, named);
  // A key of this run's own: a run that was taken over, should it wake up, touches no other's.
  const archiveKey = storageKeyOf(job.tenantId, randomUUID());
  try {
    // What a run that died left of the bundle on this machine.
    if (job.attempts > 1) await fs.rm(bundle, { recursive: true, force: true });
    const manifest = await exportTenant(
      orm,
      backend,
      job.tenantId,
      bundle,
      ({ done, total, what }) => {
        // The records are most of the work; the files and the archive the rest.
        const percent = Math.floor(what === 'files' ? 90 + (5 * done) / total : (90 * done) / total);
        if (Date.now() - reportedAt < 1000 && percent < 100) return;
        reportedAt = Date.now();
        report((trx, run) => reportProgress(trx, run, Math.min(95, percent)));
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
    const done = {
      bundle: named,
      message: `${records} records, ${Object.keys(manifest.files).length} files${
        manifest.missingFiles
          ? `; the bytes of ${manifest.missingFiles.length} stored file(s) were missing from the file store and are left out (the manifest's missingFiles)`
          : ''
      }`,
      archiveKey,
      archiveSize: size,
      archiveSha256: hash.digest('hex'),
    };
    const recorded = await record((trx, run) => finishExport(trx, run, done));
    if (!recorded) await backend.remove(archiveKey);
  } catch (err) {
    clearInterval(renewal);
    await reports;
    await backend.remove(archiveKey).catch(() => undefined);
    await record((trx, run) => failExport(trx, run, (err as Error).message));
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
