import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  childEnv,
  cliCommands,
  freePort,
  freshServerDatabase,
  randomSecret,
  serviceProcesses,
} from '../support/process';
import { presentLeads, writeLoad } from '../support/write-load';

/**
 * The documented backup of a PostgreSQL server (scripts/backup/, docs/operations.md "Backups"):
 * pg-dump.sh under a steady write load, pg-restore.sh into a new database, and the service started
 * on the copy finds every write acknowledged before the backup began, and none made after it;
 * the restore drill (prove-pg-dump.sh) passes. A target that cannot be written is a clear error
 * while the service goes on. Runs where DATABASE_URL names a server (as in CI).
 */
jest.setTimeout(600_000);

const ROOT = path.resolve(__dirname, '../..');
const onServer = process.env.DATABASE_URL ? describe : describe.skip;

function script(name: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn('bash', [path.join(ROOT, 'scripts/backup', name), ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('close', (code) => resolve({ code, stdout, stderr })),
  );
}

onServer('pg_dump and pg_restore on a PostgreSQL server', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'bms-pg-backup-'));
  const secret = randomSecret();
  const services = serviceProcesses(() => env);
  let source: Awaited<ReturnType<typeof freshServerDatabase>>;
  let target: Awaited<ReturnType<typeof freshServerDatabase>>;
  let env: NodeJS.ProcessEnv;
  const { ok } = cliCommands(() => env);

  beforeAll(async () => {
    source = await freshServerDatabase(`backup_src_${process.pid}`);
    target = await freshServerDatabase(`backup_dst_${process.pid}`);
    env = childEnv({ DATABASE_URL: source.url, JWT_SECRET: secret, DATA_DIR: work });
  });
  afterAll(async () => {
    services.killAll();
    await source?.drop();
    await target?.drop();
    rmSync(work, { recursive: true, force: true });
  });

  const start = (url: string, port: number) => services.start({ DATABASE_URL: url, PORT: String(port) });
  const { stop } = services;

  it('a backup under write load restores every write acknowledged before it began', async () => {
    const port = await freePort();
    let service = await start(source.url, port);
    const { token } = await ok('tenant:create', '--name', 'Backed up', '--admin-email', 'ops@backup.test');
    const load = writeLoad(port, token);
    await load.more(20);

    const file = path.join(work, 'server.dump');
    const began = load.mark();
    const dumped = await script('pg-dump.sh', [file], env);
    const ended = load.mark();
    expect(dumped).toEqual({ code: 0, stdout: expect.stringContaining(`"file":"${file}"`), stderr: '' });

    const refused = await script('pg-dump.sh', [path.join(work, 'no-such-folder', 'x.dump')], env);
    expect(refused).toEqual({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(
        /cannot write the backup to .*x\.dump: its folder does not exist or is not writable/,
      ),
    });
    await load.sentSince(ended, 10);
    await load.stop();
    await stop(service);

    const restored = await script('pg-restore.sh', [file], { ...env, TARGET_URL: target.url });
    expect(restored).toEqual({ code: 0, stdout: expect.stringContaining('"restored"'), stderr: '' });
    // Into a database that is not empty: refused.
    const again = await script('pg-restore.sh', [file], { ...env, TARGET_URL: target.url });
    expect(again).toEqual({ code: 1, stdout: '', stderr: expect.stringMatching(/is not empty/) });

    service = await start(target.url, port);
    const beforeBackup = load.ackedBefore(began);
    const afterBackup = load.sentAfter(ended);
    expect(beforeBackup.length).toBeGreaterThanOrEqual(20);
    expect(afterBackup.length).toBeGreaterThanOrEqual(10);
    expect(await presentLeads(port, token, beforeBackup)).toEqual(beforeBackup);
    expect(await presentLeads(port, token, afterBackup)).toEqual([]);
    await stop(service);

    const drill = await script('prove-pg-dump.sh', [], env);
    expect(drill).toEqual({ code: 0, stdout: expect.stringContaining('"proved": true'), stderr: '' });
  });
});
