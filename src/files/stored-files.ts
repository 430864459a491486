import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/core';
import sharp from 'sharp';
import { queryRows } from '../db/orm-bypass/statements';
import { notifyWork } from '../events/work-signals';
import { AppError, badRequest, conflict, notFound, titleFor } from '../errors';
import { FileAssetType } from '../entities/shared';
import { withoutBidiControls } from '../family/display-text';
import { storageKeyOf, type FileBackend } from './backends';
import type { FileLimits, FileSettings } from './settings';
import { Inspector, storedType, typeAllowed, unsupportedType, type Sniffed } from './inspect';

/** A row of `stored_file`, as the service reads it. */
export interface StoredFile {
  tenantId: string;
  id: string;
  name: string;
  type: string;
  size: number;
  sha256: string | null;
  width: number | null;
  height: number | null;
  thumbnailId: string | null;
  thumbnailState: string;
  storageKey: string;
  created: Date;
  completed: Date | null;
  expires: Date | null;
  deleted: Date | null;
}

function fileOf(row: Record<string, unknown>): StoredFile {
  return {
    tenantId: row.tenant_id as string,
    id: row.id as string,
    name: row.name as string,
    type: row.type as string,
    size: Number(row.size),
    sha256: (row.sha256 as string | null) ?? null,
    width: row.width == null ? null : Number(row.width),
    height: row.height == null ? null : Number(row.height),
    thumbnailId: (row.thumbnail_id as string | null) ?? null,
    thumbnailState: row.thumbnail_state as string,
    storageKey: row.storage_key as string,
    created: new Date(row.created as string),
    completed: row.completed ? new Date(row.completed as string) : null,
    expires: row.expires ? new Date(row.expires as string) : null,
    deleted: row.deleted ? new Date(row.deleted as string) : null,
  };
}

/** Raster types sharp reads: these get dimensions and a thumbnail. */
export const RASTER_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif']);

/** What the GraphQL `FileAsset` holds, from the stored file. */
export interface FileAssetValue {
  blobId: string;
  name: string;
  extension: string | null;
  fileSize: number;
  type: FileAssetType;
  created: string;
}

/** What the GraphQL `ImageRef` holds, from the stored file. */
export interface ImageRefValue {
  blobId: string;
  width: number | null;
  height: number | null;
  thumbnailBlobId: string | null;
}

export function assetKind(type: string): FileAssetType {
  if (type.startsWith('image/')) return FileAssetType.IMAGE;
  if (type.startsWith('video/')) return FileAssetType.VIDEO;
  if (type.startsWith('model/')) return FileAssetType.MODEL;
  if (type === 'application/pdf' || type.startsWith('text/') || type.includes('officedocument'))
    return FileAssetType.DOCUMENT;
  return FileAssetType.OTHER;
}

export function extensionOf(name: string): string | null {
  const ext = path.extname(name).slice(1).toLowerCase();
  return /^[a-z0-9]{1,12}$/.test(ext) ? ext : null;
}

export function assetOf(file: StoredFile): FileAssetValue {
  return {
    blobId: file.id,
    name: file.name,
    extension: extensionOf(file.name),
    fileSize: file.size,
    type: assetKind(file.type),
    created: (file.completed ?? file.created).toISOString(),
  };
}

export function imageOf(file: StoredFile): ImageRefValue {
  return { blobId: file.id, width: file.width, height: file.height, thumbnailBlobId: file.thumbnailId };
}

/**
 * A name as stored: the last segment of whatever path a client sent, without control
 * characters or bidirectional controls (which would show `x\u202egnp.exe` as `xexe.png`), at most
 * 255 characters. It is shown, never used as a path or key.
 */
export function cleanName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = withoutBidiControls(base)
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 255);
  return clean === '' || clean === '.' || clean === '..' ? 'file' : clean;
}

const tooLarge = (limit: number, what: string) =>
  new AppError(413, titleFor(413), `${what} (the limit is ${limit} bytes)`, {
    errors: [{ field: 'file', reason: `${what} (the limit is ${limit} bytes)` }],
    limit,
  });

const GiB = 1024 * 1024 * 1024;

/** The tenant's limits: its own settings over the deployment's defaults. */
const limitsOfRow = (row: Record<string, unknown> | undefined, defaults: FileLimits): FileLimits => ({
  maxFileSize: row?.max_file_size != null ? Number(row.max_file_size) : defaults.maxFileSize,
  quotaBytes: row?.quota_bytes != null ? Number(row.quota_bytes) : defaults.quotaBytes,
  allowedTypes: (row?.allowed_types as string[] | null) ?? defaults.allowedTypes,
});

export async function limitsOf(
  em: EntityManager,
  tenantId: string,
  defaults: FileLimits,
): Promise<FileLimits> {
  const [row] = await queryRows(
    em,
    `select max_file_size, allowed_types, quota_bytes from file_settings where tenant_id = $1`,
    [tenantId],
  );
  return limitsOfRow(row, defaults);
}

/**
 * A row that takes its size of the quota: a file, or a two-step upload whose ticket has not
 * expired. An expired ticket's reservation is released at once, though its row waits for the
 * clean-up job (a ticket cut by a stalled body stays valid until then: it can be sent again).
 */
const HOLDS_ROOM = `not (completed is null and coalesce(expires < now(), false))`;

/** The tenant's limits and the bytes it stores now, in one statement (an upload needs both). */
export async function limitsAndUse(
  em: EntityManager,
  tenantId: string,
  defaults: FileLimits,
): Promise<{ limits: FileLimits; used: number }> {
  const [row] = await queryRows(
    em,
    `select s.max_file_size, s.allowed_types, s.quota_bytes,
       (select coalesce(sum(size), 0) from stored_file where tenant_id = $1 and deleted is null and ${HOLDS_ROOM}) as used
     from (select 1) one left join file_settings s on s.tenant_id = $1`,
    [tenantId],
  );
  return { limits: limitsOfRow(row, defaults), used: Number(row.used) };
}

export async function saveLimits(
  em: EntityManager,
  tenantId: string,
  limits: { maxFileSize?: number | null; quotaBytes?: number | null; allowedTypes?: string[] | null },
): Promise<void> {
  for (const [field, value] of [
    ['maxFileSize', limits.maxFileSize],
    ['quotaBytes', limits.quotaBytes],
  ] as const)
    if (value != null && (!Number.isSafeInteger(value) || value < 0 || value > 1024 * GiB))
      throw badRequest(`${field}: must be a whole number of bytes from 0 to ${1024 * GiB}`);
  await queryRows(
    em,
    `insert into file_settings (tenant_id, max_file_size, allowed_types, quota_bytes) values ($1, $2, $3, $4)
     on conflict (tenant_id) do update set max_file_size = excluded.max_file_size,
       allowed_types = excluded.allowed_types, quota_bytes = excluded.quota_bytes`,
    [
      tenantId,
      limits.maxFileSize ?? null,
      limits.allowedTypes?.map((t) => t.trim().toLowerCase()) ?? null,
      limits.quotaBytes ?? null,
    ],
  );
}

/** Bytes the tenant's files take (pending uploads count with their declared size). */
export async function usedBytes(em: EntityManager, tenantId: string): Promise<number> {
  const [row] = await queryRows(
    em,
    `select coalesce(sum(size), 0) as used from stored_file where tenant_id = $1 and deleted is null and ${HOLDS_ROOM}`,
    [tenantId],
  );
  return Number(row.used);
}

/** A completed, not deleted file of the tenant, or null. */
export async function findFile(em: EntityManager, tenantId: string, id: string): Promise<StoredFile | null> {
  if (!isUuid(id)) return null;
  const [row] = await queryRows(
    em,
    `select * from stored_file where tenant_id = $1 and id = $2 and deleted is null and completed is not null`,
    [tenantId, id],
  );
  return row ? fileOf(row) : null;
}

/** Completed, not deleted files of the tenant among `ids`. */
export async function findFiles(
  em: EntityManager,
  tenantId: string,
  ids: readonly string[],
): Promise<StoredFile[]> {
  const wanted = [...new Set(ids.filter(isUuid))];
  if (!wanted.length) return [];
  const rows = await queryRows(
    em,
    `select * from stored_file where tenant_id = $1 and id = any($2::uuid[]) and deleted is null and completed is not null`,
    [tenantId, wanted],
  );
  return rows.map(fileOf);
}

export const isUuid = (id: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

/** Serialises the quota check and insert of one tenant's files (two uploads could both fit alone). */
async function lockTenantFiles(em: EntityManager, tenantId: string): Promise<void> {
  await queryRows(em, `select pg_advisory_xact_lock(hashtext('stored_file:' || $1))`, [tenantId]);
}

const quotaExceeded = (quota: number, used: number, size: number) =>
  tooLarge(quota, `the tenant's files would take ${used + size} bytes, over its quota`);

async function dimensionsOf(backend: FileBackend, key: string): Promise<{ width: number; height: number }> {
  const reader = sharp({ failOn: 'none' });
  (await backend.get(key)).pipe(reader);
  const meta = await reader.metadata();
  return { width: meta.width ?? 0, height: meta.height ?? 0 };
}

/** Runs `work` in a tenant transaction of its own (the caller of this module decides how). */
export type InTenant = <R>(work: (em: EntityManager) => Promise<R>) => Promise<R>;

/** What else is written with a stored file's row, in its transaction (its event). */
export type OnStored = (em: EntityManager, file: StoredFile) => Promise<void>;

export interface Upload {
  name?: string;
  declaredType: string;
  body: Readable;
}

/**
 * The file store: uploads (streamed, or two-step through a presigned upload), reads and
 * deletion, over one backend. Limits are the tenant's (`file_settings`) over the deployment's.
 */
export class FileStore {
  constructor(
    readonly backend: FileBackend,
    readonly settings: FileSettings,
    /** Signs the local backend's upload URLs (http/files-router.ts). */
    readonly uploadSecret: string,
  ) {}

  /**
   * Stores an upload as it streams: hashed, counted and recognised on the way, refused as soon
   * as it breaks a limit or its type lies, and recorded only once every byte is stored. A body
   * that fails (a client gone halfway) leaves no object and no row.
   */
  async store(
    tenantId: string,
    userId: string | null,
    limits: FileLimits,
    used: number,
    upload: Upload,
    inTenant: InTenant,
    onStored?: OnStored,
  ): Promise<StoredFile> {
    const id = randomUUID();
    const key = storageKeyOf(tenantId, id);
    const room = limits.quotaBytes - used;
    const max = Math.min(limits.maxFileSize, Math.max(room, 0));
    let type = 'application/octet-stream';
    const inspector: Inspector = new Inspector(
      max,
      (): Error =>
        room < limits.maxFileSize
          ? quotaExceeded(limits.quotaBytes, used, inspector.bytes)
          : tooLarge(limits.maxFileSize, 'the file is larger than the largest file allowed'),
      (sniffed) => (type = this.checkedType(upload.declaredType, sniffed, limits)),
    );
    upload.body.once('error', (err) => inspector.destroy(err));
    upload.body.pipe(inspector);
    await this.backend.put(key, inspector, 'application/octet-stream');
    return this.record(
      tenantId,
      userId,
      id,
      key,
      { name: cleanName(upload.name), type, size: inspector.bytes, sha256: inspector.sha256 },
      inTenant,
      undefined,
      onStored,
    );
  }

  private checkedType(declared: string, sniffed: Sniffed | null, limits: FileLimits): string {
    const type = storedType(declared, sniffed);
    if (!typeAllowed(type, limits.allowedTypes))
      throw unsupportedType(`files of type ${type} are not allowed here`);
    return type;
  }

  /** Dimensions for a raster image, then the row, with the quota checked under the tenant's lock. */
  private async record(
    tenantId: string,
    userId: string | null,
    id: string,
    key: string,
    file: { name: string; type: string; size: number; sha256: string },
    inTenant: InTenant,
    pending?: StoredFile,
    onStored?: OnStored,
  ): Promise<StoredFile> {
    try {
      const raster = RASTER_TYPES.has(file.type);
      const dims = raster ? await dimensionsOf(this.backend, key).catch(() => null) : null;
      if (raster && !dims) throw unsupportedType(`the file's content is not a readable ${file.type} image`);
      return await inTenant(async (em) => {
        await lockTenantFiles(em, tenantId);
        const now = await limitsAndUse(em, tenantId, this.settings.defaults);
        const limits = now.limits;
        const used = now.used - (pending?.size ?? 0);
        if (used + file.size > limits.quotaBytes) throw quotaExceeded(limits.quotaBytes, used, file.size);
        const thumbnailId = raster ? randomUUID() : null;
        const values = [
          tenantId,
          id,
          file.name,
          file.type,
          file.size,
          file.sha256,
          dims?.width ?? null,
          dims?.height ?? null,
          thumbnailId,
          raster ? 'PENDING' : 'NONE',
          key,
          userId,
        ];
        const [row] = pending
          ? await queryRows(
              em,
              `update stored_file set name = $3, type = $4, size = $5, sha256 = $6, width = $7, height = $8, thumbnail_id = $9,
                 thumbnail_state = $10, completed = now(), expires = null where tenant_id = $1 and id = $2 and completed is null returning *`,
              values.slice(0, 10),
            )
          : await queryRows(
              em,
              `insert into stored_file (tenant_id, id, name, type, size, sha256, width, height, thumbnail_id, thumbnail_state, storage_key, created_by, completed)
               values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, now()) returning *`,
              values,
            );
        if (!row) throw conflict(`the upload ${id} was completed already`);
        const stored = fileOf(row);
        await onStored?.(em, stored);
        if (thumbnailId) await notifyWork(em, 'thumbnails');
        return stored;
      });
    } catch (err) {
      await this.backend.remove(key).catch(() => undefined);
      throw err;
    }
  }

  /**
   * The first step of a two-step upload: a pending row holding the declared name, type and size
   * (counted against the quota), and where to send the bytes before `expires`.
   */
  async reserve(
    em: EntityManager,
    tenantId: string,
    userId: string | null,
    input: { name: string; type: string; size: number },
  ): Promise<{ file: StoredFile; limits: FileLimits }> {
    const limits = await limitsOf(em, tenantId, this.settings.defaults);
    const type = input.type.split(';')[0].trim().toLowerCase();
    if (!Number.isSafeInteger(input.size) || input.size < 0)
      throw badRequest('size: must be a whole number of bytes');
    if (input.size > limits.maxFileSize)
      throw tooLarge(limits.maxFileSize, 'the file is larger than the largest file allowed');
    if (!typeAllowed(type, limits.allowedTypes))
      throw unsupportedType(`files of type ${type} are not allowed here`);
    await lockTenantFiles(em, tenantId);
    const used = await usedBytes(em, tenantId);
    if (used + input.size > limits.quotaBytes) throw quotaExceeded(limits.quotaBytes, used, input.size);
    const id = randomUUID();
    const [row] = await queryRows(
      em,
      `insert into stored_file (tenant_id, id, name, type, size, storage_key, created_by, expires)
       values ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8)) returning *`,
      [
        tenantId,
        id,
        cleanName(input.name),
        type,
        input.size,
        storageKeyOf(tenantId, id),
        userId,
        this.settings.uploadTtlSeconds,
      ],
    );
    return { file: fileOf(row), limits };
  }

  /** A pending upload of the tenant, or a 404. */
  async pending(em: EntityManager, tenantId: string, id: string): Promise<StoredFile> {
    const [row] = isUuid(id)
      ? await queryRows(
          em,
          `select * from stored_file where tenant_id = $1 and id = $2 and deleted is null`,
          [tenantId, id],
        )
      : [];
    if (!row) throw notFound(`there is no file upload ${id}`);
    const file = fileOf(row);
    if (file.completed) throw conflict(`the upload ${id} was completed already`);
    if (file.expires && file.expires.getTime() < Date.now()) throw notFound(`the upload ${id} has expired`);
    return file;
  }

  /** The local backend's second step: the bytes of a pending upload, streamed and checked as `store` does. */
  async receive(file: StoredFile, limits: FileLimits, body: Readable): Promise<void> {
    const inspector = new Inspector(
      file.size,
      () => tooLarge(file.size, 'the file is larger than the upload declared'),
      (sniffed) => this.checkedType(file.type, sniffed, limits),
    );
    body.once('error', (err) => inspector.destroy(err));
    body.pipe(inspector);
    await this.backend.put(file.storageKey, inspector, file.type);
  }

  /**
   * The completion call: the stored object must exist and have the declared size; its bytes are
   * read back to hash them and to recognise their type, which must be the declared one. Anything
   * else removes the object, and the upload stays incomplete.
   */
  async complete(file: StoredFile, inTenant: InTenant): Promise<StoredFile> {
    const size = await this.backend.size(file.storageKey);
    if (size === null) throw conflict(`nothing was uploaded for ${file.id}`);
    if (size !== file.size) {
      await this.backend.remove(file.storageKey).catch(() => undefined);
      throw badRequest(`the stored object has ${size} bytes, not the ${file.size} the upload declared`);
    }
    const limits: FileLimits = {
      maxFileSize: file.size,
      quotaBytes: Number.MAX_SAFE_INTEGER,
      allowedTypes: ['*'],
    };
    let type = file.type;
    const inspector = new Inspector(
      file.size,
      () => tooLarge(file.size, 'the file is larger than the upload declared'),
      (sniffed) => (type = this.checkedType(file.type, sniffed, limits)),
    );
    try {
      const body = await this.backend.get(file.storageKey);
      body.once('error', (err) => inspector.destroy(err));
      body.pipe(inspector);
      for await (const _chunk of inspector);
    } catch (err) {
      await this.backend.remove(file.storageKey).catch(() => undefined);
      throw err;
    }
    return this.record(
      file.tenantId,
      null,
      file.id,
      file.storageKey,
      { name: file.name, type, size: inspector.bytes, sha256: inspector.sha256 },
      inTenant,
      file,
    );
  }

  /**
   * Stores bytes the service made itself (an invoice's PDF), in the caller's transaction `em`.
   * The bytes are written first: a transaction that then rolls back leaves them to no row, and
   * nothing names them.
   */
  async storeBytes(
    em: EntityManager,
    tenantId: string,
    userId: string | null,
    file: { name: string; type: string; bytes: Buffer },
  ): Promise<StoredFile> {
    const id = randomUUID();
    const key = storageKeyOf(tenantId, id);
    const { Readable } = await import('node:stream');
    await this.backend.put(key, Readable.from([file.bytes]), file.type);
    const { createHash } = await import('node:crypto');
    const [row] = await queryRows(
      em,
      `insert into stored_file (tenant_id, id, name, type, size, sha256, storage_key, created_by, completed)
       values ($1, $2, $3, $4, $5, $6, $7, $8, now()) returning *`,
      [
        tenantId,
        id,
        cleanName(file.name),
        file.type,
        file.bytes.length,
        createHash('sha256').update(file.bytes).digest('hex'),
        key,
        userId,
      ],
    );
    return fileOf(row);
  }

  /** Marks a file deleted; its bytes go when the clean-up job runs. False when there was none. */
  async remove(em: EntityManager, tenantId: string, id: string): Promise<StoredFile | null> {
    if (!isUuid(id)) return null;
    const [row] = await queryRows(
      em,
      `update stored_file set deleted = now() where tenant_id = $1 and id = $2 and deleted is null returning *`,
      [tenantId, id],
    );
    return row ? fileOf(row) : null;
  }
}
