import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  childEnv,
  errorLines,
  freePort,
  freshServerDatabase,
  randomSecret,
  runSource,
  startService,
  type Running,
} from '../support/process';

/**
 * The service as an operator runs it, in a process of its own: start-up on a busy port, and
 * stopping while idle on SIGTERM (a supervisor) and on SIGINT sent to the whole process group (a
 * terminal's Ctrl-C, which reaches the embedded database's host process too). Stopping must take
 * under 3 s, exit 0, log nothing at error level and release the database: the lock file gone on
 * the embedded database, no connection left on a server. The server case runs when DATABASE_URL
 * is set (as in CI), on a fresh database of its own.
 */
const targets = [
  { name: 'embedded', embedded: true },
  ...(process.env.DATABASE_URL ? [{ name: 'PostgreSQL server', embedded: false }] : []),
];

jest.setTimeout(600_000);

describe.each(targets)('the service process on the $name database', ({ embedded }) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bms-lifecycle-'));
  let env: NodeJS.ProcessEnv;
  let server: Awaited<ReturnType<typeof freshServerDatabase>> | undefined;
  const running: Running[] = [];

  beforeAll(async () => {
    if (embedded) {
      env = childEnv({ DATA_DIR: dataDir });
    } else {
      server = await freshServerDatabase(`lifecycle_${process.pid}`);
      env = childEnv({ DATABASE_URL: server.url, JWT_SECRET: randomSecret(), DATA_DIR: dataDir });
    }
  });

  afterAll(async () => {
    for (const r of running) if (r.child.exitCode === null) r.child.kill('SIGKILL');
    await server?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async (port: number) => {
    const service = await startService({ ...env, PORT: String(port) });
    running.push(service);
    return service;
  };

  /** Sends the signal, then checks the clean stop and returns how long it took. */
  const stopCleanly = async (service: Running, port: number, signal: 'SIGTERM' | 'SIGINT') => {
    // Idle, with the pool holding a connection (the state in which stopping used to hang).
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    const sent = Date.now();
    if (signal === 'SIGINT') process.kill(-service.child.pid!, 'SIGINT');
    else service.child.kill('SIGTERM');
    const { code, at } = await service.exited;
    expect({ code, errors: errorLines(service.stdout()), stderr: service.stderr() }).toEqual({
      code: 0,
      errors: [],
      stderr: '',
    });
    expect(service.stdout()).toContain('"msg":"stopped"');
    expect(at - sent).toBeLessThan(3000);
    // Nothing of it is left: no process in its group (the database host included)...
    expect(() => process.kill(-service.child.pid!, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    // ...and the database is released.
    if (embedded) {
      expect(existsSync(path.join(dataDir, 'embedded-db.lock'))).toBe(false);
    } else {
      const { rows } = await server!.admin.query(
        'select count(*)::int as n from pg_stat_activity where datname = $1',
        [new URL(server!.url).pathname.slice(1)],
      );
      expect(rows[0].n).toBe(0);
    }
    return at - sent;
  };

  /** In embedded development mode every start prints the demo tenant's curl line, and it works. */
  const checkDemoLine = async (service: Running, port: number) => {
    const line = service.stdout().match(/curl -H 'Authorization: Bearer ([\w.-]+)' (\S+)/);
    if (!embedded) {
      expect(line).toBeNull();
      return;
    }
    expect(line).not.toBeNull();
    expect(line![2]).toBe(`http://127.0.0.1:${port}/api/v1/concepts/find-all`);
    const res = await fetch(line![2], { headers: { authorization: `Bearer ${line![1]}` } });
    expect(res.status).toBe(200);
  };

  it('refuses a second start on its port in one line (exit 1), and stops on SIGTERM while idle', async () => {
    const port = await freePort();
    const first = await start(port);
    await checkDemoLine(first, port);

    const second = runSource('src/main.ts', [], { ...env, PORT: String(port) });
    running.push(second);
    const { code } = await second.exited;
    expect(code).toBe(1);
    expect(second.stderr()).toMatch(
      /^127\.0\.0\.1:\d+ is already in use \(another instance\?\): set PORT \(or HOST\) to a free one\n$/,
    );
    expect(errorLines(second.stdout())).toEqual([]);
    // The first one is untouched: it still serves, and still holds the embedded database.
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    if (embedded) expect(existsSync(path.join(dataDir, 'embedded-db.lock'))).toBe(true);

    await stopCleanly(first, port, 'SIGTERM');
  });

  it('stops on SIGINT sent to its process group (Ctrl-C) while idle, after a restart', async () => {
    const port = await freePort();
    const service = await start(port);
    // A later start on the same database prints the demo line again.
    await checkDemoLine(service, port);
    await stopCleanly(service, port, 'SIGINT');
  });
});
