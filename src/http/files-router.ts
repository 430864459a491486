import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { create as contentDisposition } from 'content-disposition';
import express, { type Request, type Response } from 'express';
import rangeParser from 'range-parser';
import type { MikroORM } from '@mikro-orm/core';
import type { Context } from '../context';
import { endTenantTransaction, withTenant } from '../db/tenant-transaction';
import { badRequest, conflict, notFound } from '../errors';
import { queryRows } from '../db/orm-bypass/statements';
import { isUuid } from '../limits';
import { checkOf, superAdminOnly } from '../permissions/rules';
import type { Logger } from '../logger';
import { FileAssetType } from '../entities/shared';
import {
  assetOf,
  findFile,
  imageOf,
  limitsAndUse,
  limitsOf,
  RASTER_TYPES,
  type FileStore,
  type InTenant,
  type StoredFile,
  type Upload,
} from '../files/stored-files';
import { fileEvent } from '../files/file-events';
import { MissingBytes } from '../files/backends';
import { receiveWithoutLimit } from './slow-clients';
import { sendCaught, sendError } from './send-error';
import type { ContextFor } from './context-for';

/** Types a browser may show in place; anything else (SVG and HTML included) is downloaded. */
const INLINE_TYPES = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/avif',
  'application/pdf',
  'video/mp4',
  'text/plain',
]);

/** What a download says of the file before its bytes: none of it belongs on an error's answer. */
const FILE_HEADERS = ['ETag', 'Cache-Control', 'Accept-Ranges', 'Content-Disposition', 'Content-Type'];

export const fileUrl = (id: string) => `/api/v1/files/${id}`;
const thumbnailUrl = (id: string) => `/api/v1/files/${id}/thumbnail`;

/**
 * Where to download a FileAsset and, for an image, its thumbnail: the one form of every answer
 * that gives them (an upload, a completed two-step upload, GraphQL's fields).
 */
export const assetLinks = (asset: { blobId?: string | null; type?: string | null }) => ({
  url: asset.blobId ? fileUrl(asset.blobId) : null,
  thumbnailUrl: asset.blobId && asset.type === FileAssetType.IMAGE ? thumbnailUrl(asset.blobId) : null,
});

/** The same for an ImageRef: its thumbnail's link once the image has one. */
export const imageLinks = (image: { blobId?: string | null; thumbnailBlobId?: string | null }) => ({
  url: image.blobId ? fileUrl(image.blobId) : null,
  thumbnailUrl: image.blobId && image.thumbnailBlobId ? thumbnailUrl(image.blobId) : null,
});

/** The answer to an upload: the `FileAsset` and, for an image, the `ImageRef`, with their links. */
export function uploadAnswer(file: StoredFile) {
  const asset = assetOf(file);
  const image = file.type.startsWith('image/') ? imageOf(file) : null;
  return {
    file: { ...asset, ...assetLinks(asset) },
    image: image ? { ...image, ...imageLinks(image) } : null,
  };
}

/** The signature that lets a browser send the bytes of a pending upload to the local backend. */
export function uploadToken(secret: string, tenantId: string, id: string, expires: Date): string {
  const expiry = Math.floor(expires.getTime() / 1000);
  const mac = createHmac('sha256', secret)
    .update(`file-upload:${tenantId}:${id}:${expiry}`)
    .digest('base64url');
  return `${tenantId}.${expiry}.${mac}`;
}

function tokenTenant(secret: string, id: string, token: string): string | null {
  const [tenantId, expiry, mac] = token.split('.');
  if (!tenantId || !expiry || !mac || Number(expiry) * 1000 < Date.now()) return null;
  const expected = uploadToken(secret, tenantId, id, new Date(Number(expiry) * 1000)).split('.')[2];
  const a = Buffer.from(mac);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b) ? tenantId : null;
}

/**
 * The one file part of a multipart body, handed to `take` as it streams. Fields other than the
 * file are ignored; a second file part, a body that is not multipart, or one that ends without a
 * file part is a 400 (415 for another media type).
 */
function fileOfMultipart<R>(
  req: Request,
  take: (upload: Upload) => Promise<R>,
  signal?: AbortSignal,
): Promise<R> {
  if (!req.is('multipart/form-data'))
    return Promise.reject(
      Object.assign(badRequest('the body must be multipart/form-data with a part named "file"'), {
        status: 415,
      }),
    );
  return new Promise<R>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        // The file part's buffer as large as the file write's, rather than 64 KiB.
        highWaterMark: 1024 * 1024,
        fileHwm: 1024 * 1024,
        limits: { files: 1, fields: 20, fieldSize: 4096, parts: 40 },
      });
    } catch (err) {
      reject(badRequest(`the multipart body cannot be read: ${(err as Error).message}`));
      return;
    }
    let taken = false;
    parser.on('file', (field, stream, info) => {
      if (field !== 'file' || taken) {
        stream.resume();
        return;
      }
      taken = true;
      take({ name: info.filename, declaredType: info.mimeType ?? '', body: stream as Readable }).then(
        resolve,
        reject,
      );
    });
    parser.on('error', (err) => {
      if (!taken) reject(badRequest(`the multipart body cannot be read: ${(err as Error).message}`));
    });
    parser.on('close', () => {
      if (!taken) reject(badRequest('the multipart body has no part named "file"'));
    });
    // A client gone halfway: the file part fails, and the stored object with it.
    req.on('aborted', () => parser.destroy(new Error('the request was cut off')));
    signal?.addEventListener('abort', () => parser.destroy(signal.reason as Error));
    req.pipe(parser);
  });
}

/** After a refused upload the rest of its body is not read: the connection closes with the answer. */
function refuseUpload(req: Request, res: Response, err: unknown, logger: Logger): void {
  if (!req.complete) res.setHeader('Connection', 'close');
  req.unpipe();
  sendCaught(res, err, logger);
}

/**
 * Stored files over HTTP, beside the REST facade: uploads (multipart, streamed), the local
 * backend's presigned-upload target, downloads with ranges, and thumbnails. A file is found only
 * within the caller's tenant (its table is under row-level security): any other id is a 404.
 */
export function filesRouter({
  store,
  orm,
  contextFor,
  logger,
  idleSeconds,
}: {
  store: FileStore;
  orm: MikroORM;
  contextFor: ContextFor;
  logger: Logger;
  /** How long the local upload target waits for the next bytes of a body (REQUEST_RECEIVE_TIMEOUT). */
  idleSeconds: number;
}): express.Router {
  const router = express.Router();
  const inTenantOf =
    (ctx: Context): InTenant =>
    (work) =>
      withTenant(
        orm.em,
        { tenantId: ctx.caller!.tenantId, userId: ctx.caller!.userId, email: ctx.caller!.email },
        work,
      );

  router.post('/files', async (req, res) => {
    res.locals.route = 'POST /files';
    try {
      if (!req.is('multipart/form-data')) {
        sendError(res, 415, 'the body must be multipart/form-data with a part named "file"');
        return;
      }
      const ctx = await contextFor(req, res);
      const caller = ctx.caller!;
      const { limits, used } = await limitsAndUse(ctx.em, caller.tenantId, store.settings.defaults);
      await endTenantTransaction(ctx.em, true);
      const inTenant = inTenantOf(ctx);
      // The event goes in the transaction that records the file: both or neither.
      const file = await fileOfMultipart(req, (upload) =>
        store.store(caller.tenantId, caller.userId, limits, used, upload, inTenant, (em, stored) =>
          fileEvent(em, caller.tenantId, 'file.created', stored),
        ),
      );
      res.status(201).setHeader('Location', fileUrl(file.id));
      res.json(uploadAnswer(file));
    } catch (err) {
      refuseUpload(req, res, err, logger);
    }
  });

  // The local backend's presigned upload: the token in the URL stands for the credential.
  router.post('/file-uploads/:id', async (req, res) => {
    res.locals.route = 'POST /file-uploads/{id}';
    try {
      const id = String(req.params.id);
      const tenantId = tokenTenant(store.uploadSecret, id, String(req.query.signature ?? ''));
      if (!tenantId) throw notFound(`there is no file upload ${id}`);
      const actor = { tenantId, userId: null, email: 'file-upload' };
      const { file, limits } = await withTenant(orm.em, actor, async (em) => ({
        file: await store.pending(em, tenantId, id),
        limits: await limitsOf(em, tenantId, store.settings.defaults),
      }));
      // A large file on a slow link: the whole body is not held to the receive limit, only each
      // gap in it, and the ticket's expiry.
      const receiving = receiveWithoutLimit(req, idleSeconds, file.expires);
      try {
        await fileOfMultipart(req, (upload) => store.receive(file, limits, upload.body), receiving.signal);
      } catch (err) {
        throw receiving.signal.aborted ? receiving.signal.reason : err;
      } finally {
        receiving.done();
      }
      res.status(204).end();
    } catch (err) {
      refuseUpload(req, res, err, logger);
    }
  });

  const download = (thumbnail: boolean) => async (req: Request, res: Response) => {
    res.locals.route = thumbnail ? 'GET /files/{id}/thumbnail' : 'GET /files/{id}';
    try {
      const ctx = await contextFor(req, res);
      const id = String(req.params.id);
      let file = await findFile(ctx.em, ctx.caller!.tenantId, id);
      if (file && thumbnail)
        file = file.thumbnailId ? await findFile(ctx.em, ctx.caller!.tenantId, file.thumbnailId) : null;
      await endTenantTransaction(ctx.em, true);
      if (!file) throw notFound(thumbnail ? `there is no thumbnail of file ${id}` : `there is no file ${id}`);
      await sendFile(req, res, file);
    } catch (err) {
      if (res.headersSent) res.destroy(err as Error);
      else sendCaught(res, err, logger);
    }
  };
  router.get('/files/:id', download(false));
  router.get('/files/:id/thumbnail', download(true));

  // A finished tenant export's bundle, as the archive the export job stored: the tenant's whole
  // data, so for its super-admin alone; any other tenant's export id is a 404 like a file's.
  router.get('/tenant-exports/:id/bundle', async (req, res) => {
    res.locals.route = 'GET /tenant-exports/{id}/bundle';
    try {
      const ctx = await contextFor(req, res);
      const allowed = checkOf(superAdminOnly)!(ctx);
      if (allowed !== true) throw allowed;
      const id = String(req.params.id);
      const [row] = isUuid(id)
        ? await queryRows(
            ctx.em,
            `select status, archive_key, archive_size, archive_sha256, completed from tenant_export
             where tenant_id = $1 and id = $2`,
            [ctx.caller!.tenantId, id],
          )
        : [];
      await endTenantTransaction(ctx.em, true);
      if (!row) throw notFound(`there is no tenant export ${id}`);
      if (row.status !== 'DONE')
        throw conflict(`the export ${id} is ${row.status}: its bundle is not written yet`);
      // A finished export whose archive is not in this store (one imported from another deployment).
      if (!row.archive_key || (await store.backend.size(row.archive_key as string)) === null)
        throw notFound(`the bundle of the export ${id} is not stored here`);
      await sendFile(req, res, {
        name: `tenant-export-${id}.tar.gz`,
        type: 'application/gzip',
        size: Number(row.archive_size),
        sha256: row.archive_sha256 as string,
        storageKey: row.archive_key as string,
      });
    } catch (err) {
      if (res.headersSent) res.destroy(err as Error);
      else sendCaught(res, err, logger);
    }
  });

  async function sendFile(
    req: Request,
    res: Response,
    file: Pick<StoredFile, 'name' | 'type' | 'size' | 'sha256' | 'storageKey'>,
  ): Promise<void> {
    const inline = INLINE_TYPES.has(file.type);
    const disposition = contentDisposition(file.name, { type: inline ? 'inline' : 'attachment' });
    res.setHeader('ETag', `"${file.sha256}"`);
    res.setHeader('Cache-Control', 'private');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Accept-Ranges', 'bytes');
    res.setHeader('Content-Disposition', disposition);
    res.setHeader(
      'Content-Type',
      inline || RASTER_TYPES.has(file.type) ? file.type : file.type || 'application/octet-stream',
    );
    // The validator alone decides (RFC 9110, 13.1.2); a client's no-cache asks caches, not us.
    const etag = `"${file.sha256}"`;
    const ifNoneMatch = req.headers['if-none-match'];
    if (
      ifNoneMatch &&
      (ifNoneMatch.trim() === '*' ||
        ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag))
    ) {
      res.status(304).end();
      return;
    }
    const { backend, settings } = store;
    if (settings.redirectDownloads && backend.signedUrl) {
      const url = await backend.signedUrl(file.storageKey, {
        type: file.type,
        disposition,
        expiresSeconds: settings.downloadTtlSeconds,
      });
      res.status(302).setHeader('Location', url).end();
      return;
    }
    let range: { start: number; end: number } | undefined;
    const header = req.headers.range;
    const ifRange = req.headers['if-range'];
    if (header && (!ifRange || ifRange === `"${file.sha256}"`)) {
      const ranges = rangeParser(file.size, header, { combine: true });
      if (ranges === -1) {
        res.setHeader('Content-Range', `bytes */${file.size}`);
        sendError(res, 416, `the range ${header} lies outside the file's ${file.size} bytes`);
        return;
      }
      // A malformed header, or several ranges, is answered with the whole file (RFC 9110 allows it).
      if (Array.isArray(ranges) && ranges.length === 1 && ranges.type === 'bytes') range = ranges[0];
    }
    // The bytes are looked for before the answer's status is set: a file whose bytes are missing
    // from the store is a 404 in the documented body, not a failure halfway through a reply.
    let bytes: Readable | undefined;
    try {
      if (req.method !== 'HEAD' && file.size > 0) bytes = await backend.get(file.storageKey, range);
      else if ((await backend.size(file.storageKey)) === null) throw new MissingBytes(file.storageKey);
    } catch (err) {
      if (!(err instanceof MissingBytes)) throw err;
      for (const header of FILE_HEADERS) res.removeHeader(header);
      throw notFound(`the bytes of ${file.name} are missing from the file store`);
    }
    if (range) {
      res.status(206);
      res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`);
      res.setHeader('Content-Length', range.end - range.start + 1);
    } else res.setHeader('Content-Length', file.size);
    if (!bytes) {
      res.end();
      return;
    }
    await pipeline(bytes, res);
  }

  return router;
}
