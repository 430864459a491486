import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import sharp from 'sharp';
import { actAsTenant, asWorker } from '../../db/worker-transaction';
import { forkFor } from '../../db/tenancy';
import { Audited } from '../../entities/tenant-scoped';
import { storageKeyOf } from '../../files/backends';
import type { FileStorage } from '../../files/storage';
import { IDLE_POLL_MAX_MS, pollQueue, type Periodic } from '../../jobs/periodic';
import type { ScheduledJob } from '../../jobs/job';
import type { Logger } from '../../logger';
import { StoredFile, type ThumbnailState } from './entities/stored-file';
import { fileEvent } from './file-events';
import { claimDueThumbnails, claimRemovable, type JsonColumn } from './stored-file-repository';

/**
 * The file jobs: thumbnails of uploaded images, and the clean-up of files no record names. Like
 * the coverage queue, the work is found in the table itself (`stored_file`, rows claimed with
 * FOR UPDATE SKIP LOCKED, so any number of processes share it), by the connection's own user
 * with `app.worker` = 'files' for its transaction, which the table's worker policy admits (the
 * application role never can).
 */
const asFilesWorker = <R>(db: Pick<MikroORM, 'em'>, work: (em: EntityManager) => Promise<R>): Promise<R> =>
  asWorker(db, 'files', work);

const thumbnailName = (name: string) => `${name.replace(/\.[^.]*$/, '')}.thumbnail.webp`;

/**
 * Makes the thumbnails that are due, at most `batch` at a time: the image read from the store,
 * fitted within the configured size (never enlarged; an animated GIF gives its first frame),
 * written as WebP under the id the upload already answered as `thumbnailBlobId`, and recorded as
 * a file of the same tenant. An image sharp cannot read is marked FAILED and not tried again.
 */
export async function makeThumbnails(
  db: Pick<MikroORM, 'em'>,
  store: FileStorage,
  batch = 10,
): Promise<number> {
  return asFilesWorker(db, async (em) => {
    const due = await claimDueThumbnails(em, batch);
    for (const image of due) {
      const thumbnailId = image.thumbnailId!;
      const key = storageKeyOf(image.tenantId, thumbnailId);
      let state: ThumbnailState = 'DONE';
      try {
        const resize = sharp({ failOn: 'none' })
          .rotate()
          .resize(store.settings.thumbnailSize, store.settings.thumbnailSize, {
            fit: 'inside',
            withoutEnlargement: true,
          })
          .webp();
        (await store.backend.get(image.storageKey)).pipe(resize);
        const bytes = await resize.toBuffer({ resolveWithObject: true });
        await store.backend.put(key, Readable.from([bytes.data]), 'image/webp');
        em.create(StoredFile, {
          tenantId: image.tenantId,
          id: thumbnailId,
          name: thumbnailName(image.name),
          type: 'image/webp',
          size: bytes.data.length,
          sha256: createHash('sha256').update(bytes.data).digest('hex'),
          width: bytes.info.width,
          height: bytes.info.height,
          storageKey: key,
          completed: new Date(),
        });
      } catch {
        state = 'FAILED';
        await store.backend.remove(key).catch(() => undefined);
      }
      image.thumbnailState = state;
      await em.flush();
    }
    return due.length;
  });
}

/** The JSON columns of every record: where a stored file's id can be named. */
function recordJsonColumns(em: EntityManager): JsonColumn[] {
  const columns: JsonColumn[] = [];
  for (const meta of Object.values(em.getMetadata().getAll())) {
    if (!meta.class || !(meta.class.prototype instanceof Audited) || meta.embeddable) continue;
    for (const prop of meta.props)
      if (prop.type === 'json' || prop.columnTypes?.[0] === 'jsonb')
        if (prop.name !== 'events') columns.push({ table: meta.tableName, column: prop.fieldNames[0] });
  }
  return columns;
}

/**
 * Removes what no one can use any more, once `graceMs` has passed: files no record names (a
 * thumbnail counts as named while its image lives), files deleted through the API, and two-step
 * uploads never completed before they expired. The bytes go first, then the row, so a failure
 * halfway leaves a row to try again, never bytes no row knows. Each removal of a file that was
 * still live is a `file.deleted` event.
 */
export async function cleanUpFiles(
  db: Pick<MikroORM, 'em'>,
  store: FileStorage,
  graceMs = store.settings.orphanGraceMs,
) {
  return asFilesWorker(db, async (em) => {
    const removable = await claimRemovable(em, recordJsonColumns(em), graceMs);
    for (const { file, live } of removable) {
      await store.backend.remove(file.storageKey);
      await em.remove(file).flush();
      if (live) {
        // The event is the tenant's: written as the tenant, in this transaction.
        await actAsTenant(em, file.tenantId);
        const fork = forkFor(db.em, { tenantId: file.tenantId, userId: null, email: 'file-cleanup' });
        fork.setTransactionContext(em.getTransactionContext()!);
        await fileEvent(fork, file.tenantId, 'file.deleted', file);
      }
    }
    return removable.length;
  });
}

/** The clean-up as the scheduler runs it, once an hour across every process. */
export const fileCleanupJob: ScheduledJob = {
  name: 'files.cleanup',
  description:
    'removes stored files no record names, files deleted through the API and two-step uploads never completed, after their grace period',
  schedule: { every: 60 * 60_000 },
  run: ({ em, files }) => {
    if (!files) throw new Error('files.cleanup runs only where the process has a file store');
    return cleanUpFiles({ em }, files);
  },
};

export type FileJobs = Periodic;

/**
 * Makes the thumbnails that are due, in this process: a queue found in the table, which every
 * process polls, less often while it stays empty (up to `maxMs` apart), and at once when an
 * upload of this process is an image (the clean-up is the `files.cleanup` scheduled job).
 */
export function startFileJobs(
  db: Pick<MikroORM, 'em'>,
  store: FileStorage,
  logger: Logger,
  firstMs = 500,
  maxMs = IDLE_POLL_MAX_MS,
): FileJobs {
  return pollQueue(
    'thumbnails',
    { firstMs, maxMs },
    logger,
    'file jobs failed; trying again later',
    async () => {
      let made = 0;
      for (let n; (n = await makeThumbnails(db, store)) > 0;) made += n;
      return made > 0;
    },
  );
}
