import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import express, { type Request, type Response } from 'express';
import type { MikroORM } from '@mikro-orm/core';
import type { Context } from '../../../context';
import { endTenantTransaction, withTenant, type InTenant } from '../../../db/tenant-transaction';
import { badRequest, notFound } from '../../../errors';
import type { Logger } from '../../../logger';
import { FileAssetType } from '../../../entities/shared';
import type { ContextFor } from '../../../http/context-for';
import { sendStoredBytes } from '../../../http/send-file';
import { sendCaught, sendError } from '../../../http/send-error';
import { receiveWithoutLimit } from '../../../http/slow-clients';
import { expressPath, routeName } from '../../../http/transfer-route';
import { fileEvent } from '../file-events';
import {
  assetOf,
  findFile,
  imageOf,
  limitsAndUse,
  limitsOf,
  type FileStore,
  type Upload,
} from '../stored-files';
import type { StoredFile } from '../entities/stored-file';
import { downloadTransfer, thumbnailTransfer, uploadTargetTransfer, uploadTransfer } from './rest';

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

  router.post(expressPath(uploadTransfer), async (req, res) => {
    res.locals.route = routeName(uploadTransfer);
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
  router.post(expressPath(uploadTargetTransfer), async (req, res) => {
    res.locals.route = routeName(uploadTargetTransfer);
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
    res.locals.route = routeName(thumbnail ? thumbnailTransfer : downloadTransfer);
    try {
      const ctx = await contextFor(req, res);
      const id = String(req.params.id);
      let file = await findFile(ctx.em, ctx.caller!.tenantId, id);
      if (file && thumbnail)
        file = file.thumbnailId ? await findFile(ctx.em, ctx.caller!.tenantId, file.thumbnailId) : null;
      await endTenantTransaction(ctx.em, true);
      if (!file) throw notFound(thumbnail ? `there is no thumbnail of file ${id}` : `there is no file ${id}`);
      await sendStoredBytes(req, res, store, file);
    } catch (err) {
      if (res.headersSent) res.destroy(err as Error);
      else sendCaught(res, err, logger);
    }
  };
  router.get(expressPath(downloadTransfer), download(false));
  router.get(expressPath(thumbnailTransfer), download(true));

  return router;
}
