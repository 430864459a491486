import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import readline from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { MikroORM } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/postgresql';
import { create as createTar } from 'tar';
import type { FileBackend } from '../files/backends';
import { migrationNames } from '../migrations/names';
import { actAsTenant, quoteIdent, rows, tenantTables, type TenantTable, knexOf } from './tenant-tables';

/**
 * A tenant's portable bundle (docs/operations.md, "Tenant life cycle"): a folder holding
 * - `manifest.json`: the format, the schema version (the last migration the exporting deployment
 *   ran), the tenant, and for every record file its record type, columns, count and SHA-256, and
 *   for every stored file its size and SHA-256;
 * - `tenant.ndjson`: the tenant's own row (settings, scopes, branding);
 * - `records/<table>.ndjson`: one line per row, the row as PostgreSQL's `row_to_json` writes it;
 * - `files/<file id>`: the bytes of each stored file.
 * Ids are kept and the tenant id is replaced: every key and reference of a tenant table is
 * `(tenant_id, id)`, so under a new tenant id the same ids collide with nothing, and every
 * reference is remapped by replacing the tenant id alone (docs/operations.md says why).
 */
export const BUNDLE_FORMAT = 'bms-tenant-bundle';
export const BUNDLE_FORMAT_VERSION = 1;
const MANIFEST = 'manifest.json';
/** Rows inserted per statement on import. */
const IMPORT_SLICE = 2000;
const TENANT_FILE = 'tenant.ndjson';

export interface RecordFile {
  file: string;
  count: number;
  sha256: string;
  columns: string[];
}

export interface Manifest {
  format: typeof BUNDLE_FORMAT;
  formatVersion: number;
  schemaVersion: string;
  exportedAt: string;
  tenant: { id: string; name: string };
  tenantRecord: RecordFile;
  records: Record<string, RecordFile>;
  files: Record<string, { file: string; size: number; sha256: string }>;
}

/** A bundle that cannot be imported as it is: the message says what is wrong with it. */
export class BundleError extends Error {}

/** How far an export or import has come, for a caller that shows progress. */
export type Progress = (step: { done: number; total: number; what: string }) => void;

export const schemaVersion = () => migrationNames[migrationNames.length - 1];

const sha256Of = async (file: string): Promise<string> => {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Rows of one query, read through a cursor so that a large table never sits in memory whole. */
async function* cursorLines(
  trx: Knex.Transaction,
  query: string,
  bindings: unknown[],
): AsyncGenerator<string> {
  const cursor = `bundle_${randomUUID().replace(/-/g, '')}`;
  await trx.raw(`declare ${cursor} no scroll cursor for ${query}`, bindings as Knex.RawBinding[]);
  for (;;) {
    const batch = await rows<{ line: string }>(trx, `fetch 1000 from ${cursor}`);
    for (const r of batch) yield r.line;
    if (batch.length < 1000) break;
  }
  await trx.raw(`close ${cursor}`);
}

async function writeLines(
  file: string,
  lines: AsyncIterable<string>,
): Promise<{ count: number; sha256: string }> {
  let count = 0;
  const hash = createHash('sha256');
  const out = createWriteStream(file, { flags: 'wx' });
  await pipeline(
    Readable.from(
      (async function* () {
        for await (const line of lines) {
          count++;
          const text = `${line}\n`;
          hash.update(text);
          yield text;
        }
      })(),
    ),
    out,
  );
  return { count, sha256: hash.digest('hex') };
}

/**
 * Writes the tenant's bundle into `dir` (created; it must not exist yet). The records come from
 * one repeatable-read transaction, so they are one consistent moment of the tenant however long
 * the export takes; the stored files are copied after, and those the records name.
 */
export async function exportTenant(
  orm: MikroORM,
  backend: FileBackend,
  tenantId: string,
  dir: string,
  progress: Progress = () => undefined,
): Promise<Manifest> {
  try {
    await fs.mkdir(path.dirname(path.resolve(dir)), { recursive: true });
    await fs.mkdir(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new BundleError(`${dir} already exists: name a new folder for the bundle`);
    throw new BundleError(`cannot write the bundle to ${dir}: ${(err as Error).message}`);
  }
  try {
    return await writeBundle(orm, backend, tenantId, dir, progress);
  } catch (err) {
    // A bundle without its manifest is no bundle: leave no half-written folder to be mistaken for one.
    await fs.rm(dir, { recursive: true, force: true });
    throw err;
  }
}

async function writeBundle(
  orm: MikroORM,
  backend: FileBackend,
  tenantId: string,
  dir: string,
  progress: Progress,
): Promise<Manifest> {
  await fs.mkdir(path.join(dir, 'records'));
  await fs.mkdir(path.join(dir, 'files'));
  const knex = knexOf(orm);
  const files: { id: string; key: string }[] = [];
  const manifest: Manifest = await knex.transaction(
    async (trx): Promise<Manifest> => {
      await actAsTenant(trx, tenantId);
      const tenant = (
        await rows<{ id: string; name: string }>(trx, 'select id, name from tenant where id = ?', [tenantId])
      )[0];
      if (!tenant) throw new BundleError(`no tenant ${tenantId}`);
      const tables = await tenantTables(trx);
      const total = tables.length + 1;
      const tenantColumns = (
        await rows<{ name: string }>(
          trx,
          `select attname::text as name from pg_attribute where attrelid = 'tenant'::regclass and attnum > 0 and not attisdropped and attgenerated = '' order by attnum`,
        )
      ).map((c) => c.name);
      const tenantRecord = {
        file: TENANT_FILE,
        columns: tenantColumns,
        ...(await writeLines(
          path.join(dir, TENANT_FILE),
          cursorLines(trx, 'select row_to_json(t)::text as line from tenant t where id = ?', [tenantId]),
        )),
      };
      progress({ done: 1, total, what: 'tenant' });
      const records: Manifest['records'] = {};
      let done = 1;
      for (const table of tables) {
        const file = `records/${table.name}.ndjson`;
        const order = table.key.map(quoteIdent).join(', ');
        records[table.name] = {
          file,
          columns: table.columns,
          ...(await writeLines(
            path.join(dir, file),
            cursorLines(
              trx,
              `select row_to_json(t)::text as line from ${quoteIdent(table.name)} t where tenant_id = ? order by ${order}`,
              [tenantId],
            ),
          )),
        };
        progress({ done: ++done, total, what: table.name });
      }
      if (tables.some((t) => t.name === 'stored_file'))
        files.push(
          ...(await rows<{ id: string; key: string }>(
            trx,
            'select id, storage_key as key from stored_file where tenant_id = ? order by id',
            [tenantId],
          )),
        );
      return {
        format: BUNDLE_FORMAT,
        formatVersion: BUNDLE_FORMAT_VERSION,
        schemaVersion: schemaVersion(),
        exportedAt: new Date().toISOString(),
        tenant: { id: tenant.id, name: tenant.name },
        tenantRecord,
        records,
        files: {},
      };
    },
    { isolationLevel: 'repeatable read', readOnly: true },
  );
  let copied = 0;
  for (const { id, key } of files) {
    // A file whose upload never completed, or that the clean-up already removed, has no bytes.
    if ((await backend.size(key)) === null) continue;
    const file = `files/${id}`;
    const target = path.join(dir, file);
    const hash = createHash('sha256');
    let size = 0;
    await pipeline(
      await backend.get(key),
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          hash.update(chunk);
          size += chunk.length;
          yield chunk;
        }
      },
      createWriteStream(target, { flags: 'wx' }),
    );
    manifest.files[id] = { file, size, sha256: hash.digest('hex') };
    progress({ done: ++copied, total: files.length, what: 'files' });
  }
  await fs.writeFile(path.join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { flag: 'wx' });
  return manifest;
}

/**
 * The bundle in `dir` as one gzip-compressed tar archive, streamed: its entries are the bundle's
 * files at the archive's root (`manifest.json`, `tenant.ndjson`, `records/`, `files/`), so
 * `tar -xzf` into an empty folder gives back the folder `bms tenant:import --bundle` takes.
 */
export function bundleArchive(dir: string): Readable {
  return Readable.from(
    createTar({ gzip: true, cwd: dir, portable: true }, [MANIFEST, TENANT_FILE, 'records', 'files']),
  );
}

async function readManifest(dir: string): Promise<Manifest> {
  let text: string;
  try {
    text = await fs.readFile(path.join(dir, MANIFEST), 'utf8');
  } catch (err) {
    throw new BundleError(
      `${dir} is not a tenant bundle: ${MANIFEST} cannot be read (${(err as NodeJS.ErrnoException).code})`,
    );
  }
  let manifest: Manifest;
  try {
    manifest = JSON.parse(text) as Manifest;
  } catch {
    throw new BundleError(`${MANIFEST} is not JSON: the bundle is truncated or altered`);
  }
  if (manifest?.format !== BUNDLE_FORMAT)
    throw new BundleError(`${dir} is not a tenant bundle (format ${JSON.stringify(manifest?.format)})`);
  if (manifest.formatVersion !== BUNDLE_FORMAT_VERSION)
    throw new BundleError(
      `the bundle's format version ${manifest.formatVersion} is not ${BUNDLE_FORMAT_VERSION}, the one this version reads`,
    );
  if (!migrationNames.includes(manifest.schemaVersion))
    throw new BundleError(
      `the bundle was written by a newer schema (${manifest.schemaVersion}); this deployment's schema is ${schemaVersion()}: upgrade it first`,
    );
  if (!manifest.tenant || typeof manifest.tenant.id !== 'string' || !UUID.test(manifest.tenant.id))
    throw new BundleError(`${MANIFEST} names no tenant id`);
  return manifest;
}

function recordPath(dir: string, what: string, record: RecordFile): string {
  const file = path.join(dir, record.file);
  if (path.relative(dir, file).startsWith('..')) throw new BundleError(`${what}: a file outside the bundle`);
  return file;
}

const altered = (what: string, record: RecordFile) =>
  new BundleError(`${what}: ${record.file} does not match its checksum (truncated or altered)`);

/**
 * Checks a record file against the manifest, streaming it: its checksum and its count of lines
 * (records), without holding it in memory.
 */
async function checkRecordFile(dir: string, what: string, record: RecordFile): Promise<void> {
  const hash = createHash('sha256');
  let count = 0;
  let last = 0x0a;
  try {
    for await (const chunk of createReadStream(recordPath(dir, what, record)) as AsyncIterable<Buffer>) {
      hash.update(chunk);
      for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) count++;
      last = chunk[chunk.length - 1];
    }
  } catch (err) {
    if (err instanceof BundleError) throw err;
    throw new BundleError(`${what}: ${record.file} is missing from the bundle`);
  }
  if (last !== 0x0a) count++;
  if (hash.digest('hex') !== record.sha256) throw altered(what, record);
  if (count !== record.count)
    throw new BundleError(
      `${what}: ${record.file} holds ${count} records, the manifest says ${record.count}`,
    );
}

/**
 * The records of a checked record file, one line at a time, read again as a stream. The file is
 * hashed again as it goes, so one that changed since its check fails at its end, before anything
 * read from it is committed.
 */
async function* recordLines(dir: string, what: string, record: RecordFile): AsyncGenerator<string> {
  const hash = createHash('sha256');
  const input = createReadStream(recordPath(dir, what, record));
  input.on('data', (chunk) => hash.update(chunk));
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) yield line;
  if (hash.digest('hex') !== record.sha256) throw altered(what, record);
}

/** The lines of `lines` in arrays of at most `size`. */
async function* slices(lines: AsyncIterable<string>, size: number): AsyncGenerator<string[]> {
  let slice: string[] = [];
  for await (const line of lines) {
    slice.push(line);
    if (slice.length >= size) {
      yield slice;
      slice = [];
    }
  }
  if (slice.length > 0) yield slice;
}

export interface ImportResult {
  tenantId: string;
  name: string;
  records: Record<string, number>;
  files: number;
}

/**
 * Loads a bundle as a new tenant: every check first (manifest, schema version, checksums and
 * counts of every file), then the stored files, then every record in one transaction; a failure
 * at any point leaves no row and no file of the new tenant behind.
 */
export async function importTenant(
  orm: MikroORM,
  backend: FileBackend,
  dir: string,
  options: { name?: string } = {},
  progress: Progress = () => undefined,
): Promise<ImportResult> {
  const manifest = await readManifest(dir);
  const oldId = manifest.tenant.id;
  const newId = randomUUID();
  const remap = (line: string) => line.split(oldId).join(newId);
  await checkRecordFile(dir, 'tenant', manifest.tenantRecord);
  const tenantLines: string[] = [];
  for await (const line of recordLines(dir, 'tenant', manifest.tenantRecord)) tenantLines.push(line);
  if (tenantLines.length !== 1) throw new BundleError(`${TENANT_FILE} must hold the tenant's one record`);
  const tenantRow = JSON.parse(remap(tenantLines[0])) as Record<string, unknown>;
  const name = options.name?.trim() || String(tenantRow.name ?? '');
  if (!name) throw new BundleError('the bundle names no tenant, and no name was given');
  tenantRow.name = name;
  // An imported tenant starts as a live one, whatever deletion the exported one was waiting for.
  if ('delete_after' in tenantRow) tenantRow.delete_after = null;

  const knex = knexOf(orm);
  const tables = await knex.transaction((trx) => tenantTables(trx));
  const byName = new Map(tables.map((t) => [t.name, t]));
  const loads: { table: TenantTable; columns: string[]; record: RecordFile }[] = [];
  for (const [tableName, record] of Object.entries(manifest.records ?? {})) {
    const table = byName.get(tableName);
    if (!table)
      throw new BundleError(
        `the bundle holds records of "${tableName}", a table this deployment does not have`,
      );
    const unknown = record.columns.filter((c) => !table.columns.includes(c));
    if (unknown.length > 0)
      throw new BundleError(
        `the bundle's ${tableName} has columns this deployment does not: ${unknown.join(', ')}`,
      );
    await checkRecordFile(dir, tableName, record);
    loads.push({ table, columns: record.columns, record });
  }
  loads.sort((a, b) => tables.indexOf(a.table) - tables.indexOf(b.table));
  for (const [id, f] of Object.entries(manifest.files ?? {})) {
    if (!UUID.test(id)) throw new BundleError(`files: "${id}" is not a file id`);
    const file = path.join(dir, 'files', id);
    let actual: string;
    try {
      actual = await sha256Of(file);
    } catch {
      throw new BundleError(`files: ${f.file} is missing from the bundle`);
    }
    if (actual !== f.sha256)
      throw new BundleError(`files: ${f.file} does not match its checksum (truncated or altered)`);
  }

  const stored: string[] = [];
  try {
    const fileIds = Object.keys(manifest.files ?? {});
    const types = new Map<string, string>();
    const storedFiles = loads.find((l) => l.table.name === 'stored_file')?.record;
    if (storedFiles)
      for await (const line of recordLines(dir, 'stored_file', storedFiles)) {
        const row = JSON.parse(line) as { id: string; type: string };
        types.set(row.id, row.type);
      }
    for (const id of fileIds) {
      const key = `${newId}/${id}`;
      const type = types.get(id) ?? 'application/octet-stream';
      await backend.put(key, createReadStream(path.join(dir, 'files', id)), type);
      stored.push(key);
      progress({ done: stored.length, total: fileIds.length, what: 'files' });
    }
    const counts: Record<string, number> = {};
    await knex.transaction(async (trx) => {
      await actAsTenant(trx, newId);
      const taken = await rows(trx, `select 1 from tenant where lower(name) = lower(?) limit 1`, [name]);
      if (taken.length > 0)
        throw new BundleError(`a tenant named "${name}" already exists: give the import another --name`);
      await trx.raw(`insert into tenant select * from json_populate_record(null::tenant, ?::json)`, [
        JSON.stringify(tenantRow),
      ]);
      let done = 0;
      for (const { table, columns, record } of loads) {
        const list = columns.map(quoteIdent).join(', ');
        // A table whose rows reference each other goes in one statement, which checks those
        // references at its end whatever the rows' order; others go in slices of bounded size,
        // read from the file as they go.
        const size = table.selfReferencing ? Math.max(1, record.count) : IMPORT_SLICE;
        let count = 0;
        for await (const slice of slices(recordLines(dir, table.name, record), size)) {
          await trx.raw(
            `insert into ${quoteIdent(table.name)} (${list}) select ${list} from json_populate_recordset(null::${quoteIdent(table.name)}, ?::json)`,
            [`[${slice.map(remap).join(',')}]`],
          );
          count += slice.length;
        }
        if (count !== record.count) throw altered(table.name, record);
        counts[table.name] = count;
        progress({ done: ++done, total: loads.length, what: table.name });
      }
      // The exports of the exported tenant ran there: their archives are in the other deployment's
      // store, and one that was running (the export that wrote this bundle) is not to run here.
      if (byName.has('tenant_export'))
        await trx.raw(
          `update tenant_export set archive_key = null, archive_size = null, archive_sha256 = null, lease_until = null,
             status = case when status in ('PENDING', 'RUNNING') then 'FAILED' else status end,
             message = case when status in ('PENDING', 'RUNNING') then 'exported before it ended; imported from a bundle' else message end,
             completed = coalesce(completed, now())
           where tenant_id = ?`,
          [newId],
        );
    });
    return { tenantId: newId, name, records: counts, files: stored.length };
  } catch (err) {
    await Promise.all(stored.map((key) => backend.remove(key).catch(() => undefined)));
    if (err instanceof BundleError) throw err;
    const e = err as { code?: string; detail?: string; constraint?: string; message: string };
    if (e.code === '23505')
      throw new BundleError(
        `the bundle's records collide with this deployment's (${e.constraint ?? 'a unique key'}${e.detail ? `: ${e.detail}` : ''}); nothing was imported`,
      );
    if (e.code?.startsWith('22') || e.code?.startsWith('23'))
      throw new BundleError(`the bundle's records are refused (${e.message}); nothing was imported`);
    throw err;
  }
}
