import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { create as contentDisposition } from 'content-disposition';
import type { Request, Response } from 'express';
import rangeParser from 'range-parser';
import { notFound } from '../errors';
import { MissingBytes } from '../files/backends';
import type { FileStorage } from '../files/storage';
import { sendError } from './send-error';

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

/** What a download needs to know of the bytes it sends: a stored file, or an export's archive. */
export interface StoredBytes {
  name: string;
  type: string;
  size: number;
  sha256: string | null;
  storageKey: string;
}

/**
 * Sends stored bytes as a download: their type, length, `ETag` and a safe `Content-Disposition`,
 * a `Range` of them as 206, a 304 for a matching `If-None-Match`, or a redirect to a signed URL
 * of the object store where the deployment says so.
 */
export async function sendStoredBytes(
  req: Request,
  res: Response,
  store: FileStorage,
  file: StoredBytes,
): Promise<void> {
  const inline = INLINE_TYPES.has(file.type);
  const disposition = contentDisposition(file.name, { type: inline ? 'inline' : 'attachment' });
  res.setHeader('ETag', `"${file.sha256}"`);
  res.setHeader('Cache-Control', 'private');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Content-Disposition', disposition);
  res.setHeader('Content-Type', file.type || 'application/octet-stream');
  // The validator alone decides (RFC 9110, 13.1.2); a client's no-cache asks caches, not us.
  const etag = `"${file.sha256}"`;
  const ifNoneMatch = req.headers['if-none-match'];
  if (
    ifNoneMatch &&
    (ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag))
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
