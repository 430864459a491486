import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import { LockMode, type EntityManager } from '@mikro-orm/core';
import sharp from 'sharp';
import type { InTenant } from '../../db/tenant-transaction';
import { notifyWork } from '../../events/work-signals';
import { AppError, badRequest, conflict, notFound, titleFor } from '../../errors';
import { FileAssetType, type FileAsset, type ImageRef } from '../../entities/shared';
import { withoutBidiControls } from '../../family/display-text';
import { storageKeyOf, type FileBackend } from '../../files/backends';
import type { FileLimits, FileSettings as StorageSettings } from '../../files/settings';
import type { FileStorage } from '../../files/storage';
import { Inspector, storedType, typeAllowed, unsupportedType, type Sniffed } from '../../files/inspect';
import { FileSettings } from './entities/file-settings';
import { StoredFile } from './entities/stored-file';
import { limitsAndUseRow, lockTenantFiles, usedBytes, type LimitsAndUseRow } from './stored-file-repository';

/** Raster types sharp reads: these get dimensions and a thumbnail. */
export const RASTER_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif']);

/**
 * A shared shape as the stored file fills it in: every field of the shape given (null where the
 * file has no value), so a field added to the shape is a field `assetOf` or `imageOf` must fill.
 */
type FilledIn<Shape> = { [K in keyof Shape]-?: Exclude<Shape[K], undefined> | null };

/** What the GraphQL `FileAsset` holds, from the stored file. */
export type FileAssetValue = FilledIn<FileAsset>;

/** What the GraphQL `ImageRef` holds, from the stored file. */
export type ImageRefValue = FilledIn<ImageRef>;

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
const limitsOfSettings = (
  own: {
    maxFileSize: number | null;
    quotaBytes: number | null;
    allowedTypes: readonly string[] | null;
  } | null,
  defaults: FileLimits,
): FileLimits => ({
  maxFileSize: own?.maxFileSize ?? defaults.maxFileSize,
  quotaBytes: own?.quotaBytes ?? defaults.quotaBytes,
  allowedTypes: own?.allowedTypes ?? defaults.allowedTypes,
});

const numberOrNull = (value: string | null): number | null => (value == null ? null : Number(value));

const limitsOfRow = (row: LimitsAndUseRow, defaults: FileLimits): FileLimits =>
  limitsOfSettings(
    {
      maxFileSize: numberOrNull(row.max_file_size),
      quotaBytes: numberOrNull(row.quota_bytes),
      allowedTypes: row.allowed_types,
    },
    defaults,
  );

export async function limitsOf(
  em: EntityManager,
  tenantId: string,
  defaults: FileLimits,
): Promise<FileLimits> {
  return limitsOfSettings(await em.findOne(FileSettings, { tenantId }), defaults);
}

/** The tenant's limits and the bytes it stores now, in one statement (an upload needs both). */
export async function limitsAndUse(
  em: EntityManager,
  tenantId: string,
  defaults: FileLimits,
): Promise<{ limits: FileLimits; used: number }> {
  const row = await limitsAndUseRow(em, tenantId);
  return { limits: limitsOfRow(row, defaults), used: Number(row.used) };
}

/**
 * A fork of `em` in its transaction: a stored file's row is written at once, without flushing
 * what the caller's unit of work holds (the record naming the file is flushed when the caller is
 * done, and its history and events with it).
 */
function besideOf(em: EntityManager): EntityManager {
  const fork = em.fork({ clear: true, useContext: false });
  const trx = em.getTransactionContext();
  if (trx) fork.setTransactionContext(trx);
  return fork;
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
  await em.upsert(FileSettings, {
    tenantId,
    maxFileSize: limits.maxFileSize ?? null,
    allowedTypes: limits.allowedTypes?.map((t) => t.trim().toLowerCase()) ?? null,
    quotaBytes: limits.quotaBytes ?? null,
  });
}

/** A completed, not deleted file of the tenant, or null. */
export async function findFile(em: EntityManager, tenantId: string, id: string): Promise<StoredFile | null> {
  if (!isUuid(id)) return null;
  return em.findOne(StoredFile, { tenantId, id: id.toLowerCase(), deleted: null, completed: { $ne: null } });
}

/** Completed, not deleted files of the tenant among `ids`. */
export async function findFiles(
  em: EntityManager,
  tenantId: string,
  ids: readonly string[],
): Promise<StoredFile[]> {
  const wanted = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
  if (!wanted.length) return [];
  return em.find(StoredFile, { tenantId, id: { $in: wanted }, deleted: null, completed: { $ne: null } });
}

export const isUuid = (id: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

const quotaExceeded = (quota: number, used: number, size: number) =>
  tooLarge(quota, `the tenant's files would take ${used + size} bytes, over its quota`);

async function dimensionsOf(backend: FileBackend, key: string): Promise<{ width: number; height: number }> {
  const reader = sharp({ failOn: 'none' });
  (await backend.get(key)).pipe(reader);
  const meta = await reader.metadata();
  return { width: meta.width ?? 0, height: meta.height ?? 0 };
}

/** What else is written with a stored file's row, in its transaction (its event). */
export type OnStored = (em: EntityManager, file: StoredFile) => Promise<void>;

/** Bytes written by `FileStore.putBytes`, not yet recorded. */
export interface PutFile {
  tenantId: string;
  id: string;
  key: string;
  name: string;
  type: string;
  size: number;
  sha256: string;
}

export interface Upload {
  name?: string;
  declaredType: string;
  body: Readable;
}

/**
 * The file store: uploads (streamed, or two-step through a presigned upload), reads and
 * deletion, over one backend. Limits are the tenant's (`file_settings`) over the deployment's.
 */
export class FileStore implements FileStorage {
  constructor(
    readonly backend: FileBackend,
    readonly settings: StorageSettings,
    /** Signs the local backend's upload URLs (api/files-router.ts). */
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
        const values = {
          name: file.name,
          type: file.type,
          size: file.size,
          sha256: file.sha256,
          width: dims?.width ?? null,
          height: dims?.height ?? null,
          thumbnailId,
          thumbnailState: raster ? ('PENDING' as const) : ('NONE' as const),
          completed: new Date(),
        };
        const stored = pending
          ? await em.findOne(StoredFile, { tenantId, id, completed: null }, { refresh: true })
          : em.create(StoredFile, { tenantId, id, storageKey: key, createdBy: userId, ...values });
        if (!stored) throw conflict(`the upload ${id} was completed already`);
        if (pending) Object.assign(stored, values, { expires: null });
        await em.flush();
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
    const beside = besideOf(em);
    const file = beside.create(StoredFile, {
      tenantId,
      id,
      name: cleanName(input.name),
      type,
      size: input.size,
      storageKey: storageKeyOf(tenantId, id),
      createdBy: userId,
      expires: new Date(Date.now() + this.settings.uploadTtlSeconds * 1000),
    });
    await beside.flush();
    return { file, limits };
  }

  /** A pending upload of the tenant, or a 404. */
  async pending(em: EntityManager, tenantId: string, id: string): Promise<StoredFile> {
    const file = isUuid(id) ? await em.findOne(StoredFile, { tenantId, id, deleted: null }) : null;
    if (!file) throw notFound(`there is no file upload ${id}`);
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
   * Writes bytes the service made itself (an invoice's PDF, an e-mail's attachment) to the
   * backend, outside any transaction: with an object store that is a network call, which must not
   * hold a connection of the pool, nor the locks of a transaction, while it runs. `recordPuts`
   * then records them in a transaction; `discard` removes them when it does not.
   */
  async putBytes(tenantId: string, file: { name: string; type: string; bytes: Buffer }): Promise<PutFile> {
    const id = randomUUID();
    const key = storageKeyOf(tenantId, id);
    await this.backend.put(key, Readable.from([file.bytes]), file.type);
    return {
      tenantId,
      id,
      key,
      name: cleanName(file.name),
      type: file.type,
      size: file.bytes.length,
      sha256: createHash('sha256').update(file.bytes).digest('hex'),
    };
  }

  /** The rows of bytes `putBytes` wrote, in the caller's transaction `em` (one flush for all). */
  async recordPuts(
    em: EntityManager,
    userId: string | null,
    puts: readonly PutFile[],
  ): Promise<StoredFile[]> {
    if (puts.length === 0) return [];
    const beside = besideOf(em);
    const stored = puts.map((put) =>
      beside.create(StoredFile, {
        tenantId: put.tenantId,
        id: put.id,
        name: put.name,
        type: put.type,
        size: put.size,
        sha256: put.sha256,
        storageKey: put.key,
        createdBy: userId,
        completed: new Date(),
      }),
    );
    await beside.flush();
    return stored;
  }

  /** Removes bytes `putBytes` wrote that no row will name (their transaction did not record them). */
  async discard(put: PutFile): Promise<void> {
    await this.backend.remove(put.key);
  }

  /** Marks a file deleted; its bytes go when the clean-up job runs. Null when there was none. */
  async remove(em: EntityManager, tenantId: string, id: string): Promise<StoredFile | null> {
    if (!isUuid(id)) return null;
    const beside = besideOf(em);
    // Locked, so that of two deletions of one file only one finds it live (and says so).
    const file = await beside.findOne(
      StoredFile,
      { tenantId, id, deleted: null },
      beside.isInTransaction() ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
    );
    if (!file) return null;
    file.deleted = new Date();
    await beside.flush();
    return file;
  }
}
