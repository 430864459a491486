import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import readline from 'node:readline';
import { altered, BundleError, recordPath, type RecordFile } from './bundle-manifest';

/** One line of a record file, numbered from 1 as an editor shows it. */
export interface RecordLine {
  text: string;
  line: number;
}

/** A record as the bundle's line holds it, column by column. */
export type BundleRow = Record<string, unknown>;

/**
 * The lines of a record file, read as a stream, never whole. The file's bytes are hashed as
 * they go, so one that does not match the manifest (altered, truncated, or changed since an
 * earlier pass) fails at its end, before anything read from it is committed.
 */
export async function* recordLines(
  dir: string,
  what: string,
  record: RecordFile,
): AsyncGenerator<RecordLine> {
  const hash = createHash('sha256');
  const input = createReadStream(recordPath(dir, what, record));
  input.on('data', (chunk) => hash.update(chunk));
  let line = 0;
  try {
    for await (const text of readline.createInterface({ input, crlfDelay: Infinity }))
      yield { text, line: ++line };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new BundleError(`${what}: ${record.file} is missing from the bundle`);
    throw err;
  }
  if (hash.digest('hex') !== record.sha256) throw altered(what, record);
}

const at = (what: string, record: RecordFile, line: number) => `${what}: line ${line} of ${record.file}`;

/** The record a line holds: a JSON object, or a BundleError naming the table and the line. */
export function parseRow(what: string, record: RecordFile, { text, line }: RecordLine): BundleRow {
  let row: unknown;
  try {
    row = JSON.parse(text);
  } catch {
    throw new BundleError(`${at(what, record, line)} is not JSON`);
  }
  if (typeof row !== 'object' || row === null || Array.isArray(row))
    throw new BundleError(`${at(what, record, line)} is not a record (a JSON object)`);
  return row as BundleRow;
}

/**
 * Refuses a record whose tenant columns name anything but the exported tenant: a bundle is one
 * tenant's, and a record of another would be a way into that tenant on the importing deployment.
 */
export function checkTenant(
  what: string,
  record: RecordFile,
  { line }: RecordLine,
  row: BundleRow,
  columns: readonly string[],
  tenantId: string,
): void {
  for (const column of columns)
    if (row[column] !== tenantId)
      throw new BundleError(
        `${at(what, record, line)} names the tenant ${JSON.stringify(row[column] ?? null)} in ${column}, not the exported tenant ${tenantId}: a bundle holds one tenant's records; nothing was imported`,
      );
}

/**
 * The first pass over a record file, before anything is written: every line parsed and its
 * tenant checked (`each` sees every record, for what the import must know of it first), then its
 * checksum and its count against the manifest. The checksum speaks first: a record file that is
 * truncated or altered is said to be so, not that its last line is cut.
 */
export async function checkRecordFile(
  dir: string,
  what: string,
  record: RecordFile,
  tenantColumns: readonly string[],
  tenantId: string,
  each?: (row: BundleRow, line: number) => void,
): Promise<void> {
  let count = 0;
  let problem: unknown;
  for await (const line of recordLines(dir, what, record)) {
    count = line.line;
    if (problem) continue;
    try {
      const row = parseRow(what, record, line);
      checkTenant(what, record, line, row, tenantColumns, tenantId);
      each?.(row, line.line);
    } catch (err) {
      problem = err;
    }
  }
  if (count !== record.count)
    throw new BundleError(
      `${what}: ${record.file} holds ${count} records, the manifest says ${record.count}`,
    );
  if (problem) throw problem;
}

/** The items of `items` in arrays of at most `size`. */
export async function* slices<T>(items: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let slice: T[] = [];
  for await (const item of items) {
    slice.push(item);
    if (slice.length >= size) {
      yield slice;
      slice = [];
    }
  }
  if (slice.length > 0) yield slice;
}
