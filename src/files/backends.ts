import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  checkedKey,
  isStorageKey,
  MissingBytes,
  type ByteRange,
  type FileBackend,
  type PresignedPost,
} from './backend';
import type { FileSettings, S3Settings } from './settings';

export type { ByteRange, FileBackend, PresignedPost } from './backend';
export { MissingBytes, isStorageKey, storageKeyOf } from './backend';

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
    if (!isStorageKey(key)) throw new MissingBytes(key);
    // Opened before answering, so a missing file is an error here, not in the middle of a reply.
    const handle = await fs.open(this.pathOf(key), 'r').catch((err: NodeJS.ErrnoException) => {
      throw err.code === 'ENOENT' ? new MissingBytes(key) : err;
    });
    // 1 MiB reads: a download is a stream of large writes to the socket, not of 64 KiB ones.
    return handle.createReadStream({
      start: range?.start,
      end: range?.end,
      autoClose: true,
      highWaterMark: 1024 * 1024,
    });
  }

  async size(key: string): Promise<number | null> {
    if (!isStorageKey(key)) return null;
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
 * The object store's backend, its SDK loaded on first use: the AWS SDK is a good part of the
 * modules a process loads, and a process on the local backend, or a CLI command that touches no
 * file, never needs it.
 */
class ObjectStoreOnFirstUse implements FileBackend {
  readonly kind = 's3' as const;
  private loaded?: Promise<FileBackend>;
  constructor(private readonly settings: S3Settings) {}

  private backend(): Promise<FileBackend> {
    return (this.loaded ??= import('./s3-backend').then(({ S3Backend }) => new S3Backend(this.settings)));
  }

  async put(key: string, body: Readable, type: string): Promise<void> {
    return (await this.backend()).put(key, body, type);
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    return (await this.backend()).get(key, range);
  }

  async size(key: string): Promise<number | null> {
    return (await this.backend()).size(key);
  }

  async remove(key: string): Promise<void> {
    return (await this.backend()).remove(key);
  }

  async presignPost(
    key: string,
    conditions: { type: string; size: number; expiresSeconds: number },
  ): Promise<PresignedPost> {
    return (await this.backend()).presignPost!(key, conditions);
  }

  async signedUrl(
    key: string,
    answer: { type: string; disposition: string; expiresSeconds: number },
  ): Promise<string> {
    return (await this.backend()).signedUrl!(key, answer);
  }
}

export function openBackend(settings: FileSettings): FileBackend {
  return settings.backend === 's3' ? new ObjectStoreOnFirstUse(settings.s3!) : new LocalBackend(settings.dir);
}
