import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { MikroORM } from '@mikro-orm/core';
import { create as createTar } from 'tar';
import { keyHint, NO_SECRET } from '../auth/api-keys';
import type { FileBackend } from '../files/backends';
import {
  bundledFile,
  checkFiles,
  exportFiles,
  removeStored,
  storedFileKey,
  storeFiles,
  type BundledFile,
  type FileRow,
} from './bundle-files';
import { insertRecords, type TablePlan } from './bundle-insert';
import { bundledIssuer, planIssuers, type BundledIssuer, type IssuerOptions } from './bundle-issuers';
import {
  BUNDLE_FORMAT,
  BUNDLE_FORMAT_VERSION,
  BundleError,
  MANIFEST,
  readManifest,
  schemaVersion,
  TENANT_FILE,
  type Manifest,
  type Progress,
  type RecordFile,
} from './bundle-manifest';
import { checkRecordFile, type BundleRow } from './bundle-records';
import { settleImportedExports, storedFileRows, tableLines, tenantRowLines } from './bundle-repository';
import { tenantNamed, tenantNameTaken } from './tenant-repository';
import {
  actAsApplication,
  actAsTenant,
  knexOf,
  tenantRowTable,
  tenantTables,
  type TenantTable,
} from './tenant-table-repository';

export { BundleError, schemaVersion, type Manifest, type Progress } from './bundle-manifest';

/**
 * A tenant's portable bundle (bundle-manifest.ts says what it holds). Ids are kept and the
 * tenant id is replaced: every key and reference of a tenant table is `(tenant_id, id)`, so
 * under a new tenant id the same ids collide with nothing, and every reference follows by the
 * tenant columns alone (docs/operations.md says why). The import takes nothing that names a
 * tenant or a place in the store from the bundle: docs/security.md, "Tenant bundles".
 */

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

export interface ExportOptions {
  /** Leave out the bytes of live files the store does not have, listing them, rather than fail. */
  skipMissingFiles?: boolean;
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
  options: ExportOptions = {},
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
    return await writeBundle(orm, backend, tenantId, dir, progress, options);
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
  options: ExportOptions,
): Promise<Manifest> {
  await fs.mkdir(path.join(dir, 'records'));
  await fs.mkdir(path.join(dir, 'files'));
  const knex = knexOf(orm);
  const files: FileRow[] = [];
  const manifest: Manifest = await knex.transaction(
    async (trx): Promise<Manifest> => {
      await actAsTenant(trx, tenantId);
      const tenant = await tenantNamed(trx, tenantId);
      if (!tenant) throw new BundleError(`no tenant ${tenantId}`);
      const tables = await tenantTables(trx);
      const total = tables.length + 1;
      const tenantRecord = {
        file: TENANT_FILE,
        columns: (await tenantRowTable(trx)).columns,
        ...(await writeLines(path.join(dir, TENANT_FILE), tenantRowLines(trx, tenantId))),
      };
      progress({ done: 1, total, what: 'tenant' });
      const records: Manifest['records'] = {};
      let done = 1;
      for (const table of tables) {
        const file = `records/${table.name}.ndjson`;
        records[table.name] = {
          file,
          columns: table.columns,
          ...(await writeLines(path.join(dir, file), tableLines(trx, table, tenantId))),
        };
        progress({ done: ++done, total, what: table.name });
      }
      if (tables.some((t) => t.name === 'stored_file')) files.push(...(await storedFileRows(trx, tenantId)));
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
  await exportFiles(backend, files, dir, manifest, options.skipMissingFiles ?? false, progress);
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

export interface ImportOptions extends IssuerOptions {
  /** The new tenant's name; the bundle's tenant's name when not given. */
  name?: string;
  /** Import live stored files whose bytes the bundle lacks (their downloads answer 404) rather than refuse. */
  allowMissingFiles?: boolean;
}

export interface ImportResult {
  tenantId: string;
  name: string;
  records: Record<string, number>;
  files: number;
}

interface Load {
  table: TenantTable;
  record: RecordFile;
}

/** A record file of the bundle for a table of this deployment, with no column it lacks. */
function loadOf(byName: Map<string, TenantTable>, tableName: string, record: RecordFile): Load {
  const table = byName.get(tableName);
  if (!table)
    throw new BundleError(
      `the bundle holds records of "${tableName}", a table this deployment does not have`,
    );
  const unknown = (record.columns ?? []).filter((c) => !table.columns.includes(c));
  if (unknown.length > 0)
    throw new BundleError(
      `the bundle's ${tableName} has columns this deployment does not: ${unknown.join(', ')}`,
    );
  return { table, record };
}

/**
 * Loads a bundle as a new tenant. Everything is checked first, before anything is written: the
 * manifest, the schema version, every record file's checksum and count, every record's tenant
 * columns (any other tenant than the exported one refuses the whole bundle), the stored files'
 * bytes, and the issuers. Then the stored files go in under keys the service makes, and every
 * record in one transaction that runs as the application role with the new tenant set, so that
 * row-level security refuses a row of any other tenant; a failure at any point leaves no row and
 * no file of the new tenant behind.
 */
export async function importTenant(
  orm: MikroORM,
  backend: FileBackend,
  dir: string,
  options: ImportOptions = {},
  progress: Progress = () => undefined,
): Promise<ImportResult> {
  const manifest = await readManifest(dir);
  const oldId = manifest.tenant.id;
  const newId = randomUUID();
  const knex = knexOf(orm);
  const { tables, tenantRow } = await knex.transaction(async (trx) => ({
    tables: await tenantTables(trx),
    tenantRow: await tenantRowTable(trx),
  }));
  const tenant = loadOf(new Map([[tenantRow.name, tenantRow]]), tenantRow.name, manifest.tenantRecord);
  let bundledName = '';
  await checkRecordFile(dir, 'tenant', tenant.record, tenantRow.tenantColumns, oldId, (row) => {
    bundledName = typeof row.name === 'string' ? row.name : '';
  });
  if (tenant.record.count !== 1) throw new BundleError(`${TENANT_FILE} must hold the tenant's one record`);
  const name = options.name?.trim() || bundledName;
  if (!name) throw new BundleError('the bundle names no tenant, and no name was given');

  const byName = new Map(tables.map((t) => [t.name, t]));
  const loads = Object.entries(manifest.records ?? {}).map(([t, record]) => loadOf(byName, t, record));
  loads.sort((a, b) => tables.indexOf(a.table) - tables.indexOf(b.table));
  const storedFiles = new Map<string, BundledFile>();
  const issuers: BundledIssuer[] = [];
  const collect: Record<string, (row: BundleRow, line: number) => void> = {
    stored_file: (row, line) => storedFiles.set(String(row.id), bundledFile(row, line)),
    trusted_issuer: (row, line) => issuers.push(bundledIssuer(row, line)),
  };
  for (const { table, record } of loads)
    await checkRecordFile(dir, table.name, record, table.tenantColumns, oldId, collect[table.name]);
  await checkFiles(dir, manifest, storedFiles, options.allowMissingFiles ?? false);
  const plans: Record<string, TablePlan> = {
    stored_file: { assigned: ['storage_key'], assign: storedFileKey(newId) },
    api_key: {
      assigned: ['hint', 'secret_hash'],
      assign: (row) => ({ hint: keyHint(newId, String(row.id)), secret_hash: NO_SECRET }),
    },
    trusted_issuer: await planIssuers(knex, issuers, options),
  };

  const stored = await storeFiles(backend, dir, manifest, storedFiles, newId, progress);
  try {
    const counts: Record<string, number> = {};
    await knex.transaction(async (trx) => {
      // Names are unique across tenants, which the application role cannot see: asked first.
      if (await tenantNameTaken(trx, name))
        throw new BundleError(`a tenant named "${name}" already exists: give the import another --name`);
      await actAsApplication(trx, newId);
      await insertRecords(trx, dir, tenantRow, tenant.record, newId, {
        assigned: ['name', 'delete_after'],
        // An imported tenant starts as a live one, whatever deletion the exported one was waiting for.
        assign: () => ({ name, delete_after: null }),
      });
      let done = 0;
      for (const { table, record } of loads) {
        const { inserted } = await insertRecords(trx, dir, table, record, newId, plans[table.name]);
        counts[table.name] = inserted;
        progress({ done: ++done, total: loads.length, what: table.name });
      }
      // The exports of the exported tenant ran there (settleImportedExports says what that means here).
      if (byName.has('tenant_export')) await settleImportedExports(trx, newId);
    });
    return { tenantId: newId, name, records: counts, files: stored.length };
  } catch (err) {
    await removeStored(backend, stored);
    if (err instanceof BundleError) throw err;
    throw refusal(err);
  }
}

/** What the database's refusal of a record says to the operator. */
function refusal(err: unknown): unknown {
  const e = err as { code?: string; detail?: string; constraint?: string; message: string };
  if (e.code === '23505')
    return new BundleError(
      `the bundle's records collide with this deployment's (${e.constraint ?? 'a unique key'}${e.detail ? `: ${e.detail}` : ''}); nothing was imported${
        e.constraint === 'trusted_issuer_issuer_uq'
          ? ': import with --issuer-map OLD=NEW or --without-issuers (docs/operations.md)'
          : ''
      }`,
    );
  if (e.code === '42501' || e.code?.startsWith('22') || e.code?.startsWith('23'))
    return new BundleError(`the bundle's records are refused (${e.message}); nothing was imported`);
  return err;
}
