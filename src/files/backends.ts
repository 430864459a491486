import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { FileSettings, S3Settings } from './settings';

/** A byte range of an object, both ends included (as HTTP's Range counts them). */
export interface ByteRange {
  start: number;
  end: number;
}

/** What a browser sends its file with, straight to the object store. */
export interface PresignedPost {
  url: string;
  fields: Record<string, string>;
}

/**
 * Where the bytes of stored files live. Keys are made by the service alone (`<tenant>/<file id>`,
 * ids it generated), never from a name a client sent. `put` is all or nothing: an object is
 * readable under its key only once every byte arrived, and a body that fails halfway leaves
 * nothing behind.
 */
export interface FileBackend {
  readonly kind: 'local' | 's3';
  put(key: string, body: Readable, type: string): Promise<void>;
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** The stored size, or null when there is no such object. */
  size(key: string): Promise<number | null>;
  remove(key: string): Promise<void>;
  /** A presigned browser upload with its conditions (object store only). */
  presignPost?(
    key: string,
    conditions: { type: string; size: number; expiresSeconds: number },
  ): Promise<PresignedPost>;
  /** A short-lived signed URL that downloads the object (object store only). */
  signedUrl?(
    key: string,
    answer: { type: string; disposition: string; expiresSeconds: number },
  ): Promise<string>;
}

const KEY = /^[0-9a-f-]{36}\/[0-9a-f-]{36}$/;

/** A key the service made: two ids. Anything else never reaches a path or the object store. */
function checkedKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`not a storage key: ${key}`);
  return key;
}

/** Makes a folder's entries (a rename into it, a folder made in it) last through a crash. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await fs.open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * A folder on local disk (the default, under DATA_DIR). A file is written under a temporary
 * name in the folder's `.incoming`, flushed to disk, and renamed into place when complete; rename
 * is atomic within one file system, so a reader sees the whole file or none, and after a crash a
 * file that a committed row names is all there.
 */
export class LocalBackend implements FileBackend {
  readonly kind = 'local' as const;
  constructor(readonly root: string) {}

  private pathOf(key: string): string {
    return path.join(this.root, ...checkedKey(key).split('/'));
  }

  async put(key: string, body: Readable): Promise<void> {
    const target = this.pathOf(key);
    const incoming = path.join(this.root, '.incoming');
    await fs.mkdir(incoming, { recursive: true });
    const temporary = path.join(incoming, randomUUID());
    try {
      // A large buffer lets the chunks that arrive while a write is under way go down together
      // in one writev, rather than one write of a network-sized chunk each. `flush`: on disk
      // before it has a name, since the row that names it is committed (durably) next, and a
      // crash must not leave that row naming an empty or cut-off file.
      await pipeline(
        body,
        createWriteStream(temporary, { flags: 'wx', highWaterMark: 1024 * 1024, flush: true }),
      );
      const folder = path.dirname(target);
      const made = await fs.mkdir(folder, { recursive: true });
      await fs.rename(temporary, target);
      // The new name on disk too, and the tenant's folder's own entry when it was just made.
      await syncFolder(folder);
      if (made) await syncFolder(this.root);
    } catch (err) {
      await fs.rm(temporary, { force: true });
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.pathOf(key);
    // Opened before answering, so a missing file is an error here, not in the middle of a reply.
    const handle = await fs.open(file, 'r');
    // 1 MiB reads: a download is a stream of large writes to the socket, not of 64 KiB ones.
    return handle.createReadStream({
      start: range?.start,
      end: range?.end,
      autoClose: true,
      highWaterMark: 1024 * 1024,
    });
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await fs.stat(this.pathOf(key))).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }
}

/**
 * Any S3-compatible object store, through the AWS SDK v3. Uploads go up as multipart uploads
 * (lib-storage) of 8 MiB parts, two at a time, so a large file takes a bounded amount of memory;
 * a body that fails halfway aborts the multipart upload, and an incomplete multipart upload is
 * never an object.
 */
export class S3Backend implements FileBackend {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  readonly bucket: string;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
    });
  }

  async put(key: string, body: Readable, type: string): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: checkedKey(key), Body: body, ContentType: type },
      partSize: 8 * 1024 * 1024,
      queueSize: 2,
    });
    // A body that failed may leave lib-storage waiting for data that never comes; the body's
    // error (a refusal, a client gone) is the one to report, not the abort it causes.
    let failure: unknown;
    body.once('error', (err) => {
      failure = err;
      void upload.abort().catch(() => undefined);
    });
    if (body.errored) failure = body.errored;
    try {
      if (failure) throw failure;
      await upload.done();
    } catch (err) {
      throw failure ?? err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const answer = await this.client.send(
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: checkedKey(key),
        Range: range ? `bytes=${range.start}-${range.end}` : undefined,
      }),
    );
    return answer.Body as Readable;
  }

  async size(key: string): Promise<number | null> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: checkedKey(key) }),
      );
      return head.ContentLength ?? 0;
    } catch (err) {
      if (
        err instanceof NotFound ||
        err instanceof NoSuchKey ||
        (err as { name?: string }).name === 'NotFound'
      )
        return null;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: checkedKey(key) }));
  }

  async presignPost(
    key: string,
    { type, size, expiresSeconds }: { type: string; size: number; expiresSeconds: number },
  ): Promise<PresignedPost> {
    const { url, fields } = await createPresignedPost(this.client, {
      Bucket: this.bucket,
      Key: checkedKey(key),
      Conditions: [
        ['content-length-range', size, size],
        ['eq', '$Content-Type', type],
      ],
      Fields: { 'Content-Type': type },
      Expires: expiresSeconds,
    });
    return { url, fields };
  }

  async signedUrl(
    key: string,
    { type, disposition, expiresSeconds }: { type: string; disposition: string; expiresSeconds: number },
  ): Promise<string> {
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: checkedKey(key),
        ResponseContentType: type,
        ResponseContentDisposition: disposition,
        ResponseCacheControl: 'private',
      }),
      { expiresIn: expiresSeconds },
    );
  }
}

export function openBackend(settings: FileSettings): FileBackend {
  return settings.backend === 's3' ? new S3Backend(settings.s3!) : new LocalBackend(settings.dir);
}
