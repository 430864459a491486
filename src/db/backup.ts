import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { openEmbedded, runningHost, type Control } from './embedded';

/**
 * Backups of the embedded database (docs/operations.md, "Backups"): a gzipped tarball of its data
 * directory, taken by the host process that runs it (pglite-host.js), so it is consistent while
 * the service runs; restored into DATA_DIR while the service is stopped. A PostgreSQL server is
 * backed up with its own tools (scripts/backup/).
 */
export class BackupError extends Error {}

/** Checks that `file` can be written (its folder exists and is writable) before any work. */
function writableTarget(file: string): string {
  const target = path.resolve(file);
  const dir = path.dirname(target);
  let reason: string | undefined;
  try {
    if (!fs.statSync(dir).isDirectory()) reason = 'its folder is not writable (not a folder)';
    else fs.accessSync(dir, fs.constants.W_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    reason =
      code === 'ENOENT'
        ? 'its folder does not exist'
        : `its folder is not writable (${code === 'ENOTDIR' ? 'not a folder' : code})`;
  }
  if (reason) throw new BackupError(`cannot write the backup to ${target}: ${reason}`);
  if (fs.existsSync(target))
    throw new BackupError(`${target} already exists: name a new file for the backup`);
  return target;
}

async function fetchDump(control: Control): Promise<Buffer> {
  const res = await fetch(`http://127.0.0.1:${control.port}/backup`, {
    method: 'POST',
    headers: { 'x-bms-token': control.token },
  });
  if (!res.ok) throw new BackupError(`the embedded database could not be backed up: ${await res.text()}`);
  return Buffer.from(await res.arrayBuffer());
}

/**
 * Writes a backup of the embedded database under `dataDir` to `file`, from the running service's
 * database host when there is one (without pausing it beyond the copy), else from one started for
 * the purpose. The file appears whole or not at all.
 */
export async function backupEmbedded(
  dataDir: string,
  file: string,
): Promise<{ file: string; bytes: number }> {
  const target = writableTarget(file);
  const running = runningHost(dataDir);
  let bytes: Buffer;
  if (running?.control) {
    bytes = await fetchDump(running.control);
  } else if (running) {
    throw new BackupError('the running service predates online backups: restart it, then back up');
  } else {
    const db = await openEmbedded(dataDir);
    try {
      bytes = await fetchDump(db.control!);
    } finally {
      await db.stop();
    }
  }
  const partial = `${target}.partial-${randomUUID()}`;
  try {
    fs.writeFileSync(partial, bytes, { flag: 'wx' });
    fs.renameSync(partial, target);
  } catch (err) {
    try {
      fs.rmSync(partial, { force: true });
    } catch {
      // Nothing was written there.
    }
    throw new BackupError(`cannot write the backup to ${target}: ${(err as Error).message}`);
  }
  return { file: target, bytes: bytes.length };
}

/**
 * Replaces the embedded database under `dataDir` with the backup in `file`. Refused while the
 * service (or anything else) has the database open. The backup is opened in a folder of its own
 * first, so a damaged file leaves the current database as it was; the current one is then kept
 * beside it as `pgdata.before-restore-<time>`.
 */
export async function restoreEmbedded(
  dataDir: string,
  file: string,
): Promise<{ restored: string; previous: string | null }> {
  if (runningHost(dataDir))
    throw new BackupError(
      `the database in ${dataDir} is in use (the service is running): stop it, then restore`,
    );
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (err) {
    throw new BackupError(`cannot read the backup ${file}: ${(err as NodeJS.ErrnoException).code}`);
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const staging = path.join(dataDir, `pgdata.restoring-${randomUUID()}`);
  const { PGlite } = await import('@electric-sql/pglite');
  try {
    const db = new PGlite(staging, { loadDataDir: new Blob([bytes]) });
    try {
      await db.waitReady;
      await db.query('select count(*) from mikro_orm_migrations');
    } finally {
      await db.close().catch(() => undefined);
    }
  } catch (err) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw new BackupError(`${file} is not a backup of the embedded database (${(err as Error).message})`);
  }
  const current = path.join(dataDir, 'pgdata');
  let previous: string | null = null;
  if (fs.existsSync(current)) {
    previous = path.join(dataDir, `pgdata.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    fs.renameSync(current, previous);
  }
  fs.renameSync(staging, current);
  return { restored: current, previous };
}
