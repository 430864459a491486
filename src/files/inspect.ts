import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import FileType from 'file-type';
import { AppError, titleFor } from '../errors';

/** Bytes file-type reads to recognise a type (its own `minimumBytes`). */
const HEAD_BYTES = 4100;

/** What the content says it is; null when file-type recognises nothing (text, SVG, CSV...). */
export interface Sniffed {
  mime: string;
  ext: string;
}

/**
 * A file's bytes on their way to the store: counted, hashed (SHA-256) and, from the first
 * 4100 bytes, recognised by file-type, all while they stream; nothing but that head is held.
 * Past `maxBytes` the stream fails with `tooLarge()`, so an upload over the limit stops there and
 * the backend throws away what it had. `checkHead` judges the recognised type before any byte
 * after the head goes on: a type that lies stops the upload at its first 4 KB.
 */
export class Inspector extends Transform {
  private readonly hash = createHash('sha256');
  private headChunks: Buffer[] = [];
  private headLength = 0;
  private headDone = false;
  bytes = 0;
  sniffed: Sniffed | null = null;

  constructor(
    private readonly maxBytes: number,
    private readonly tooLarge: () => Error,
    private readonly checkHead: (sniffed: Sniffed | null) => void,
  ) {
    // Buffers as large as the file write's: each chunk crosses fewer stream hops on its way.
    super({ highWaterMark: 1024 * 1024 });
    // A refusal may come before the backend has piped this stream anywhere (it may still be
    // making a folder); the backend's pipeline reports the stored error once it starts.
    this.on('error', () => undefined);
  }

  get sha256(): string {
    return this.hash.copy().digest('hex');
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) return done(this.tooLarge());
    this.hash.update(chunk);
    if (this.headDone) return done(null, chunk);
    this.headChunks.push(chunk);
    this.headLength += chunk.length;
    if (this.headLength < HEAD_BYTES) return done();
    this.releaseHead().then(() => done(), done);
  }

  override _flush(done: TransformCallback): void {
    if (this.headDone) return done();
    this.releaseHead().then(() => done(), done);
  }

  private async releaseHead(): Promise<void> {
    const head = Buffer.concat(this.headChunks);
    this.headChunks = [];
    this.headDone = true;
    const found = await FileType.fromBuffer(head);
    this.sniffed = found ? { mime: found.mime, ext: found.ext } : null;
    this.checkHead(this.sniffed);
    this.push(head);
  }
}

/** Types file-type cannot recognise from content; a declared one of these is taken as sent. */
const TEXTUAL = new Set([
  'text/plain',
  'text/csv',
  'text/html',
  'text/markdown',
  'image/svg+xml',
  'application/json',
  'model/gltf+json',
  'application/octet-stream',
]);

/** Declared types that say only "bytes": they claim nothing the content could contradict. */
const UNDECLARED = new Set(['', 'application/octet-stream']);

export const unsupportedType = (detail: string) =>
  new AppError(415, titleFor(415), detail, { errors: [{ field: 'file', reason: detail }] });

/**
 * The type a file is stored as: what its content is when file-type recognises it, else what the
 * client declared if that is a type content cannot show (text, SVG, JSON), else
 * `application/octet-stream`. A declared type that the content contradicts is refused.
 */
export function storedType(declared: string, sniffed: Sniffed | null): string {
  const claim = declared.split(';')[0].trim().toLowerCase();
  if (sniffed) {
    if (UNDECLARED.has(claim) || claim === sniffed.mime) return sniffed.mime;
    // SVG is XML, and file-type names it so.
    if (claim === 'image/svg+xml' && sniffed.mime === 'application/xml') return claim;
    throw unsupportedType(`the file was declared ${claim} but its content is ${sniffed.mime}`);
  }
  if (UNDECLARED.has(claim)) return 'application/octet-stream';
  if (TEXTUAL.has(claim)) return claim;
  throw unsupportedType(`the file was declared ${claim} but its content is not`);
}

/** The tenant's allowed types: exact types, `image/*` style prefixes, or `*`. */
export function typeAllowed(type: string, allowed: readonly string[]): boolean {
  return allowed.some(
    (a) => a === '*' || a === type || (a.endsWith('/*') && type.startsWith(a.slice(0, -1))),
  );
}
