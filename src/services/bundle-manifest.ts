import fs from 'node:fs/promises';
import path from 'node:path';
import { migrationNames } from '../migrations/names';

/**
 * A tenant's portable bundle (docs/operations.md, "Tenant life cycle"): a folder holding
 * - `manifest.json`: the format, the schema version (the last migration the exporting deployment
 *   ran), the tenant, and for every record file its record type, columns, count and SHA-256, and
 *   for every stored file its size and SHA-256 (and the files whose bytes the export left out);
 * - `tenant.ndjson`: the tenant's own row (settings, scopes, branding);
 * - `records/<table>.ndjson`: one line per row, the row as PostgreSQL's `row_to_json` writes it;
 * - `files/<file id>`: the bytes of each stored file.
 */
export const BUNDLE_FORMAT = 'bms-tenant-bundle';
export const BUNDLE_FORMAT_VERSION = 1;
export const MANIFEST = 'manifest.json';
export const TENANT_FILE = 'tenant.ndjson';

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
  /** Stored files whose bytes the exporting store did not have, left out when told to (`--skip-missing-files`). */
  missingFiles?: string[];
}

/** A bundle that cannot be imported as it is: the message says what is wrong with it. */
export class BundleError extends Error {}

/** How far an export or import has come, for a caller that shows progress. */
export type Progress = (step: { done: number; total: number; what: string }) => void;

export const schemaVersion = () => migrationNames[migrationNames.length - 1];

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export async function readManifest(dir: string): Promise<Manifest> {
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

export function recordPath(dir: string, what: string, record: RecordFile): string {
  const file = path.join(dir, record.file);
  if (path.relative(dir, file).startsWith('..')) throw new BundleError(`${what}: a file outside the bundle`);
  return file;
}

export const altered = (what: string, record: RecordFile) =>
  new BundleError(`${what}: ${record.file} does not match its checksum (truncated or altered)`);
