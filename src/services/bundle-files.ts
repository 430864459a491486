import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { storageKeyOf, type FileBackend } from '../files/backends';
import { BundleError, UUID, type Manifest, type Progress } from './bundle-manifest';
import type { BundleRow } from './bundle-records';

/**
 * The bytes of a bundle's stored files: copied from the store on export, checked against the
 * manifest and stored under keys the service makes on import. A bundle's `storage_key` is never
 * used: it names an object of the exporting deployment's store, and a crafted one could name
 * another tenant's object or a path outside the store.
 */

/** A stored file as the export reads its row. */
export interface FileRow {
  id: string;
  key: string;
  /** Completed and not deleted: its bytes are served, so they must be there. */
  live: boolean;
}

/** How many of the listed files are said in an error before "and N more". */
const LISTED = 5;

const listed = (ids: string[]) =>
  `${ids.slice(0, LISTED).join(', ')}${ids.length > LISTED ? ` and ${ids.length - LISTED} more` : ''}`;

async function copied(source: Readable, target: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  await pipeline(
    source,
    async function* (chunks: AsyncIterable<Buffer>) {
      for await (const chunk of chunks) {
        hash.update(chunk);
        size += chunk.length;
        yield chunk;
      }
    },
    createWriteStream(target, { flags: 'wx' }),
  );
  return { size, sha256: hash.digest('hex') };
}

/**
 * Copies the bytes of the files into the bundle's `files/`, recording each in the manifest. A
 * live file whose bytes the store does not have stops the export, naming the files, unless
 * `skipMissing`: then they are listed in the manifest's `missingFiles`. A file that is not live
 * (an upload never completed, a file deleted) is copied when its bytes are still there.
 */
export async function exportFiles(
  backend: FileBackend,
  files: FileRow[],
  dir: string,
  manifest: Manifest,
  skipMissing: boolean,
  progress: Progress,
): Promise<void> {
  const present: FileRow[] = [];
  const missing: string[] = [];
  for (const file of files)
    if ((await backend.size(file.key)) !== null) present.push(file);
    else if (file.live) missing.push(file.id);
  if (missing.length > 0 && !skipMissing)
    throw new BundleError(
      `${missing.length} stored file(s) have no bytes in the file store (${listed(missing)}): nothing was exported; export with --skip-missing-files to leave their bytes out (the manifest lists them)`,
    );
  if (missing.length > 0) manifest.missingFiles = missing;
  let done = 0;
  for (const { id, key } of present) {
    const file = `files/${id}`;
    manifest.files[id] = { file, ...(await copied(await backend.get(key), path.join(dir, file))) };
    progress({ done: ++done, total: present.length, what: 'files' });
  }
}

/** What the import knows of a stored file's record after its first pass. */
export interface BundledFile {
  line: number;
  live: boolean;
  type: string;
  size: unknown;
  sha256: unknown;
}

export const bundledFile = (row: BundleRow, line: number): BundledFile => ({
  line,
  live: row.completed != null && row.deleted == null,
  type: typeof row.type === 'string' ? row.type : 'application/octet-stream',
  size: row.size,
  sha256: row.sha256,
});

async function measured(file: string): Promise<{ size: number; sha256: string } | null> {
  const hash = createHash('sha256');
  let size = 0;
  try {
    for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
      hash.update(chunk);
      size += chunk.length;
    }
  } catch {
    return null;
  }
  return { size, sha256: hash.digest('hex') };
}

/**
 * Checks the bundle's bytes before anything is written: every file of the manifest is one a
 * record describes, present, of the manifest's size and SHA-256 and of the record's; every live
 * record has its bytes, unless `allowMissing` (the record is then imported, its downloads a 404).
 */
export async function checkFiles(
  dir: string,
  manifest: Manifest,
  records: Map<string, BundledFile>,
  allowMissing: boolean,
): Promise<void> {
  for (const [id, f] of Object.entries(manifest.files ?? {})) {
    if (!UUID.test(id)) throw new BundleError(`files: "${id}" is not a file id`);
    const record = records.get(id);
    if (!record) throw new BundleError(`files: ${id} is the bytes of no stored_file record of the bundle`);
    const actual = await measured(path.join(dir, 'files', id));
    if (!actual) throw new BundleError(`files: files/${id} is missing from the bundle`);
    if (actual.sha256 !== f.sha256 || actual.size !== f.size)
      throw new BundleError(
        `files: files/${id} does not match its size and checksum in the manifest (truncated or altered)`,
      );
    if (Number(record.size) !== actual.size || (record.sha256 != null && record.sha256 !== actual.sha256))
      throw new BundleError(
        `stored_file: line ${record.line} describes file ${id} with another size or checksum than its bytes in the bundle`,
      );
  }
  const missing = [...records]
    .filter(([id, r]) => r.live && !(id in (manifest.files ?? {})))
    .map(([id]) => id);
  if (missing.length > 0 && !allowMissing) {
    const first = records.get(missing[0])!;
    const skipped = new Set(manifest.missingFiles ?? []);
    throw new BundleError(
      `stored_file: line ${first.line} (file ${missing[0]}) and ${missing.length - 1} other(s) have no bytes in the bundle${
        missing.every((id) => skipped.has(id))
          ? ' (the export left them out: its store did not have them)'
          : ''
      } (${listed(missing)}); nothing was imported: import with --allow-missing-files to import them without their bytes (their downloads answer 404)`,
    );
  }
}

/** Stores the bundle's bytes under the new tenant's keys; the keys stored, for a failure to remove. */
export async function storeFiles(
  backend: FileBackend,
  dir: string,
  manifest: Manifest,
  records: Map<string, BundledFile>,
  tenantId: string,
  progress: Progress,
): Promise<string[]> {
  const stored: string[] = [];
  const ids = Object.keys(manifest.files ?? {});
  try {
    for (const id of ids) {
      const key = storageKeyOf(tenantId, id);
      await backend.put(key, createReadStream(path.join(dir, 'files', id)), records.get(id)!.type);
      stored.push(key);
      progress({ done: stored.length, total: ids.length, what: 'files' });
    }
  } catch (err) {
    await removeStored(backend, stored);
    throw err;
  }
  return stored;
}

export const removeStored = (backend: FileBackend, keys: string[]) =>
  Promise.all(keys.map((key) => backend.remove(key).catch(() => undefined)));

/** The stored file records' key, made by the service for the new tenant. */
export const storedFileKey = (tenantId: string) => (row: BundleRow) => ({
  storage_key: storageKeyOf(tenantId, String(row.id)),
});
