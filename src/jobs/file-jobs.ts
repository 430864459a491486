import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import sharp from 'sharp';
import { asWorker } from '../db/worker-transaction';
import { forkFor } from '../db/tenancy';
import { queryRows } from '../db/orm-bypass/statements';
import { Audited } from '../entities/tenant-scoped';
import { fileEvent } from '../files/file-events';
import type { FileStore, StoredFile } from '../files/stored-files';
import { storageKeyOf } from '../files/backends';
import type { Logger } from '../logger';
import { IDLE_POLL_MAX_MS, pollQueue, type Periodic } from './periodic';

/**
 * The file jobs: thumbnails of uploaded images, and the clean-up of files no record names. Like
 * the coverage queue, the work is found in the table itself (`stored_file`, rows claimed with
 * FOR UPDATE SKIP LOCKED, so any number of processes share it), by the connection's own user
 * with `app.worker` = 'files' for its transaction, which the table's worker policy admits (the
 * application role never can).
 */
const asFilesWorker = <R>(orm: MikroORM, work: (em: EntityManager) => Promise<R>): Promise<R> =>
  asWorker(orm, 'files', work);

const thumbnailName = (name: string) => `${name.replace(/\.[^.]*$/, '')}.thumbnail.webp`;

/**
 * Makes the thumbnails that are due, at most `batch` at a time: the image read from the store,
 * fitted within the configured size (never enlarged; an animated GIF gives its first frame),
 * written as WebP under the id the upload already answered as `thumbnailBlobId`, and recorded as
 * a file of the same tenant. An image sharp cannot read is marked FAILED and not tried again.
 */
export async function makeThumbnails(orm: MikroORM, store: FileStore, batch = 10): Promise<number> {
  return asFilesWorker(orm, async (em) => {
    const due = await queryRows(
      em,
      `select * from stored_file where thumbnail_state = 'PENDING' and completed is not null and deleted is null
       order by created limit $1 for update skip locked`,
      [batch],
    );
    for (const row of due) {
      const tenantId = row.tenant_id as string;
      const thumbnailId = row.thumbnail_id as string;
      const key = storageKeyOf(tenantId, thumbnailId);
      let state = 'DONE';
      try {
        const resize = sharp({ failOn: 'none' })
          .rotate()
          .resize(store.settings.thumbnailSize, store.settings.thumbnailSize, {
            fit: 'inside',
            withoutEnlargement: true,
          })
          .webp();
        (await store.backend.get(row.storage_key as string)).pipe(resize);
        const bytes = await resize.toBuffer({ resolveWithObject: true });
        await store.backend.put(key, Readable.from([bytes.data]), 'image/webp');
        await queryRows(
          em,
          `insert into stored_file (tenant_id, id, name, type, size, sha256, width, height, storage_key, completed)
           values ($1, $2, $3, 'image/webp', $4, $5, $6, $7, $8, now())`,
          [
            tenantId,
            thumbnailId,
            thumbnailName(row.name as string),
            bytes.data.length,
            createHash('sha256').update(bytes.data).digest('hex'),
            bytes.info.width,
            bytes.info.height,
            key,
          ],
        );
      } catch {
        state = 'FAILED';
        await store.backend.remove(key).catch(() => undefined);
      }
      await queryRows(em, `update stored_file set thumbnail_state = $3 where tenant_id = $1 and id = $2`, [
        tenantId,
        row.id,
        state,
      ]);
    }
    return due.length;
  });
}

/** The JSON columns of every record: where a stored file's id can be named. */
function recordJsonColumns(orm: MikroORM): { table: string; column: string }[] {
  const columns: { table: string; column: string }[] = [];
  for (const meta of Object.values(orm.getMetadata().getAll())) {
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
export async function cleanUpFiles(orm: MikroORM, store: FileStore, graceMs = store.settings.orphanGraceMs) {
  const columns = recordJsonColumns(orm);
  const named = columns
    .map(
      ({ table, column }) =>
        `exists (select 1 from "${table}" r where r.tenant_id = f.tenant_id and r."${column}"::text like '%' || f.id::text || '%')`,
    )
    .join(' or ');
  return asFilesWorker(orm, async (em) => {
    const rows = await queryRows(
      em,
      `select f.*, (f.deleted is null and f.completed is not null) as live from stored_file f
       where (f.deleted is not null and f.deleted < now() - make_interval(secs => $1 / 1000.0))
          or (f.completed is null and f.expires < now() - make_interval(secs => $1 / 1000.0))
          or (f.completed is not null and f.deleted is null and f.completed < now() - make_interval(secs => $1 / 1000.0)
              and not exists (select 1 from stored_file s where s.tenant_id = f.tenant_id and s.thumbnail_id = f.id and s.deleted is null)
              ${named ? `and not (${named})` : ''})
       for update of f skip locked`,
      [graceMs],
    );
    for (const row of rows) {
      await store.backend.remove(row.storage_key as string);
      await queryRows(em, `delete from stored_file where tenant_id = $1 and id = $2`, [
        row.tenant_id,
        row.id,
      ]);
      if (row.live) {
        const file = {
          id: row.id,
          name: row.name,
          type: row.type,
          size: Number(row.size),
          sha256: row.sha256,
          created: new Date(row.created as string),
          completed: new Date(row.completed as string),
        } as StoredFile;
        // The event is the tenant's: written as the tenant, in this transaction.
        const tenantId = row.tenant_id as string;
        await queryRows(em, `select set_config('app.tenant_id', $1, true)`, [tenantId]);
        const fork = forkFor(orm.em, { tenantId, userId: null, email: 'file-cleanup' });
        fork.setTransactionContext(em.getTransactionContext()!);
        await fileEvent(fork, tenantId, 'file.deleted', file);
      }
    }
    return rows.length;
  });
}

export type FileJobs = Periodic;

/**
 * Makes the thumbnails that are due, in this process: a queue found in the table, which every
 * process polls, less often while it stays empty (up to `maxMs` apart), and at once when an
 * upload of this process is an image (the clean-up is the `files.cleanup` scheduled job).
 */
export function startFileJobs(
  orm: MikroORM,
  store: FileStore,
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
      for (let n; (n = await makeThumbnails(orm, store)) > 0;) made += n;
      return made > 0;
    },
  );
}
