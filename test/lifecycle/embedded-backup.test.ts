import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childEnv, cliCommands, cliRunner, freePort, serviceProcesses } from '../support/process';
import { presentLeads, writeLoad } from '../support/write-load';

/**
 * `bms backup` and `bms restore` on the embedded database, as an operator runs them next to the
 * running service: a backup taken under a steady write load holds every write acknowledged before
 * it began; restored (with the service stopped), the service starts on it and finds them, and
 * not the writes made after the backup. A target that cannot be written is a clear error and the
 * service goes on; a restore while the service runs is refused.
 */
jest.setTimeout(600_000);

const dataDir = mkdtempSync(path.join(tmpdir(), 'bms-backup-'));
const outside = mkdtempSync(path.join(tmpdir(), 'bms-backup-out-'));
const env = childEnv({ DATA_DIR: dataDir });
const { ok, fails } = cliRunner(() => env);
// What does not open the database itself runs in this process (test/support/process.ts says why);
// a restore opens the backup with PGlite, which runs in a process of its own.
const command = cliCommands(() => env);
const services = serviceProcesses(() => env);
let port: number;

afterAll(() => {
  services.killAll();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const start = () => services.start({ PORT: String(port) });
const { stop } = services;

it('a backup under write load restores every write acknowledged before it began', async () => {
  port = await freePort();
  let service = await start();
  const { token } = await command.ok(
    'tenant:create',
    '--name',
    'Backed up',
    '--admin-email',
    'ops@backup.test',
  );

  const load = writeLoad(port, token);
  await load.more(20);

  const file = path.join(outside, 'embedded.tgz');
  const began = load.mark();
  const backup = await command.ok('backup', '--out', file);
  const ended = load.mark();
  expect(backup).toEqual({ file, bytes: expect.any(Number) });

  // A target that cannot be written: a clear error, and the service goes on taking writes.
  expect(await command.fails('backup', '--out', path.join(outside, 'no-such-folder', 'x.tgz'))).toEqual({
    code: 1,
    line: expect.stringMatching(/cannot write the backup to .*x\.tgz: its folder does not exist/),
  });
  writeFileSync(path.join(outside, 'a-file'), 'not a folder');
  expect(await command.fails('backup', '--out', path.join(outside, 'a-file', 'x.tgz'))).toEqual({
    code: 1,
    line: expect.stringMatching(/cannot write the backup to .*: its folder is not writable/),
  });
  expect(await command.fails('backup', '--out', file)).toEqual({
    code: 1,
    line: expect.stringMatching(/already exists/),
  });
  expect(await command.fails('restore', '--from', file)).toEqual({
    code: 1,
    line: expect.stringMatching(/is in use \(the service is running\): stop it, then restore/),
  });
  await load.sentSince(ended, 10);
  await load.stop();
  await stop(service);

  const garbage = path.join(outside, 'garbage.tgz');
  writeFileSync(garbage, 'this is not a backup');
  expect(await fails('restore', '--from', garbage)).toEqual({
    code: 1,
    line: expect.stringMatching(/is not a backup of the embedded database/),
  });

  const restored = await ok('restore', '--from', file);
  expect(restored).toEqual({
    restored: path.join(dataDir, 'pgdata'),
    previous: expect.stringContaining('pgdata.before-restore-'),
  });

  service = await start();
  const beforeBackup = load.ackedBefore(began);
  const afterBackup = load.sentAfter(ended);
  expect(beforeBackup.length).toBeGreaterThanOrEqual(20);
  expect(afterBackup.length).toBeGreaterThanOrEqual(10);
  expect(await presentLeads(port, token, beforeBackup)).toEqual(beforeBackup);
  // The restore went back in time: what was written after the backup is gone.
  expect(await presentLeads(port, token, afterBackup)).toEqual([]);
  await stop(service);
});
