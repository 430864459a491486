import { spawn } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childEnv, errorLines, freePort, watched, type Running } from '../support/process';

/**
 * `npm start` as a newcomer runs it, in a copy of the repository (its sources, scripts and build;
 * node_modules linked) so that a test may change a source: a busy port is one line and exit 1
 * before anything is built; a start builds only when the sources changed; and SIGINT sent to the
 * process group (a terminal's Ctrl-C) at each moment of start-up (building, creating the embedded
 * database, migrating, listening) exits 0 with "stopped", leaves no lock file and no process of
 * the group, and the next start works.
 */
jest.setTimeout(1_800_000);

const ROOT = path.resolve(__dirname, '../..');
const copy = mkdtempSync(path.join(tmpdir(), 'bms-npm-start-'));
const dataDir = path.join(copy, '.data');
const lock = path.join(dataDir, 'embedded-db.lock');
const running: Running[] = [];

beforeAll(() => {
  for (const item of [
    'package.json',
    'tsconfig.json',
    'tsconfig.build.json',
    'mikro-orm.config.ts',
    'scripts',
    'src',
  ])
    cpSync(path.join(ROOT, item), path.join(copy, item), { recursive: true });
  // The repository's own build, when there is one, so that the copy starts as the repository would.
  if (existsSync(path.join(ROOT, 'dist')))
    cpSync(path.join(ROOT, 'dist'), path.join(copy, 'dist'), { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
});

afterAll(() => {
  for (const r of running) if (r.child.exitCode === null) process.kill(-r.child.pid!, 'SIGKILL');
  rmSync(copy, { recursive: true, force: true });
});

/** `npm start` in the copy, in a process group of its own. */
function npmStart(port: number): Running {
  const r = watched(
    spawn('npm', ['start'], {
      cwd: copy,
      env: childEnv({ PORT: String(port), DATA_DIR: dataDir, npm_config_update_notifier: 'false' }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    }),
  );
  running.push(r);
  return r;
}

/** Resolves once the start's output holds `text`; fails if it ends first. */
async function reaches(r: Running, text: string, timeoutMs = 900_000): Promise<void> {
  const started = Date.now();
  while (!r.stdout().includes(text)) {
    if (r.child.exitCode !== null) throw new Error(`ended before "${text}":\n${r.stdout()}\n${r.stderr()}`);
    if (Date.now() - started > timeoutMs) throw new Error(`no "${text}" in time:\n${r.stdout()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Ctrl-C: SIGINT to the whole group; then the clean stop, checked. */
async function interrupt(r: Running, during: string): Promise<void> {
  process.kill(-r.child.pid!, 'SIGINT');
  const { code } = await r.exited;
  expect({ during, code, errors: errorLines(r.stdout()), stderr: r.stderr() }).toEqual({
    during,
    code: 0,
    errors: [],
    stderr: '',
  });
  expect(r.stdout()).toMatch(/"msg":"stopped"/);
  // Nothing of it is left: no process of its group (tsc, the database host), no lock file.
  expect(() => process.kill(-r.child.pid!, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  expect(existsSync(lock)).toBe(false);
}

const changeASource = () =>
  appendFileSync(path.join(copy, 'src', 'banner.ts'), `\n// changed by the test at ${Date.now()}\n`);

it('a busy port is one line and exit 1, before anything is built', async () => {
  changeASource();
  const port = await freePort();
  const holder: Server = createServer();
  await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
  try {
    const sent = Date.now();
    const r = npmStart(port);
    const { code, at } = await r.exited;
    expect(code).toBe(1);
    expect(r.stderr()).toBe(
      `127.0.0.1:${port} is already in use (another instance?): set PORT (or HOST) to a free one\n`,
    );
    expect(r.stdout()).not.toMatch(/building/);
    // npm's own start and the probe: far less than a build.
    expect(at - sent).toBeLessThan(20_000);
  } finally {
    holder.close();
  }
});

it('stops on Ctrl-C while building; builds when the sources changed and only then', async () => {
  const building = npmStart(await freePort());
  await reaches(building, 'building (tsc, incremental)');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await interrupt(building, 'building');

  // The build that was stopped recorded nothing: this start builds, then serves.
  const port = await freePort();
  const built = npmStart(port);
  await reaches(built, '"msg":"listening"');
  expect(built.stdout()).toMatch(/building \(tsc, incremental\)/);
  await interrupt(built, 'listening');
  const main = statSync(path.join(copy, 'dist', 'src', 'main.js')).mtimeMs;

  const again = npmStart(port);
  await reaches(again, '"msg":"listening"');
  expect(again.stdout()).toMatch(/the build is up to date with the sources: not building/);
  expect(again.stdout()).not.toMatch(/building \(tsc/);
  expect(statSync(path.join(copy, 'dist', 'src', 'main.js')).mtimeMs).toBe(main);
  await interrupt(again, 'listening');
});

it('stops on Ctrl-C while creating the embedded database and while migrating; the next start works', async () => {
  rmSync(dataDir, { recursive: true, force: true });
  const port = await freePort();
  const creating = npmStart(port);
  await reaches(creating, 'opening the database and applying its migrations');
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await interrupt(creating, 'creating the database');

  const migrating = npmStart(port);
  await reaches(migrating, '"msg":"applying migrations"');
  await interrupt(migrating, 'migrating');

  const opening = npmStart(port);
  await reaches(opening, 'opening the database and applying its migrations');
  await interrupt(opening, 'opening the database');

  const served = npmStart(port);
  await reaches(served, '"msg":"listening"');
  const line = /curl -H 'Authorization: Bearer ([\w.-]+)' (\S+)/.exec(served.stdout())!;
  expect((await fetch(line[2], { headers: { authorization: `Bearer ${line[1]}` } })).status).toBe(200);
  expect(JSON.parse(readFileSync(lock, 'utf8')).pid).toEqual(expect.any(Number));
  await interrupt(served, 'listening');
});
