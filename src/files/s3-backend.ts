import type { Readable } from 'node:stream';
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
import {
  checkedKey,
  isStorageKey,
  MissingBytes,
  type ByteRange,
  type FileBackend,
  type PresignedPost,
} from './backend';
import type { S3Settings } from './settings';

const isNotFound = (err: unknown) =>
  err instanceof NotFound ||
  err instanceof NoSuchKey ||
  ['NotFound', 'NoSuchKey'].includes((err as { name?: string }).name ?? '');

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
    if (!isStorageKey(key)) throw new MissingBytes(key);
    try {
      const answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      return answer.Body as Readable;
    } catch (err) {
      if (isNotFound(err)) throw new MissingBytes(key);
      throw err;
    }
  }

  async size(key: string): Promise<number | null> {
    if (!isStorageKey(key)) return null;
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: checkedKey(key) }),
      );
      return head.ContentLength ?? 0;
    } catch (err) {
      if (isNotFound(err)) return null;
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
