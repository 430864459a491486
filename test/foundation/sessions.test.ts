import { Client } from 'pg';
import { parseDatabaseUrl } from '../../src/db/database-url';
import { NoSessionError, isLost, sessionPool, sessionsFor } from '../../src/db/sessions';
import { workerDatabaseUrl } from '../support/database';
import { freePort } from '../support/process';

/**
 * The URL forms the service reads (libpq's multi-host list, which node-postgres does not), and the
 * sessions opened from them: hosts tried in turn, a lost session reported and never handed out.
 */
describe('a multi-host DATABASE_URL', () => {
  it('keeps a single-host URL as it is given', () => {
    const url = 'postgresql://bms:s3cret@db.internal:6543/bms?sslmode=require';
    const target = parseDatabaseUrl(url);
    expect(target.hosts).toEqual([{ host: 'db.internal', port: 6543 }]);
    expect(target.sessionAttrs).toBe('any');
    expect(target.urlOf(target.hosts[0])).toBe(url);
    expect(target.label).not.toContain('s3cret');
  });

  it('splits the host list into one URL per host, the other parts and parameters kept', () => {
    const target = parseDatabaseUrl(
      'postgresql://bms:pw@h1:5432,[::1],h3:5434/bms?sslmode=require&target_session_attrs=read-write',
    );
    expect(target.hosts).toEqual([
      { host: 'h1', port: 5432 },
      { host: '::1', port: 5432 },
      { host: 'h3', port: 5434 },
    ]);
    expect(target.sessionAttrs).toBe('read-write');
    expect(target.hosts.map((h) => target.urlOf(h))).toEqual([
      'postgresql://bms:pw@h1:5432/bms?sslmode=require',
      'postgresql://bms:pw@[::1]:5432/bms?sslmode=require',
      'postgresql://bms:pw@h3:5434/bms?sslmode=require',
    ]);
    expect(target.label).toBe('h1:5432,[::1]:5432,h3:5434/bms');
  });

  it('takes primary as read-write, and refuses what it does not support, naming it', () => {
    expect(parseDatabaseUrl('postgres://a,b/db?target_session_attrs=primary').sessionAttrs).toBe(
      'read-write',
    );
    expect(() => parseDatabaseUrl('postgresql://a,b/db?target_session_attrs=standby')).toThrow(
      'target_session_attrs=standby is not supported',
    );
    expect(() => parseDatabaseUrl('postgresql://a,,b/db')).toThrow('an empty host');
    expect(() => parseDatabaseUrl('postgresql://a:99999,b/db')).toThrow('no valid port');
    expect(() => parseDatabaseUrl('mysql://a/db')).toThrow('postgresql:// URL');
  });
});

describe('sessions', () => {
  let url: string;
  beforeAll(async () => {
    url = await workerDatabaseUrl();
  });

  /** The worker's database behind a host nobody listens on, listed first. */
  const withDeadHostFirst = async (attrs: string) => {
    const dead = await freePort();
    const multi = url.replace(
      /^(\w+:\/\/(?:[^@/]*@)?)([^/]+)/,
      (_, head: string, host: string) => `${head}127.0.0.1:${dead},${host}`,
    );
    return `${multi}${multi.includes('?') ? '&' : '?'}target_session_attrs=${attrs}`;
  };

  it('passes over a host that refuses, keeping the read-write session of the next', async () => {
    const sessions = sessionsFor(await withDeadHostFirst('read-write'));
    const one = await sessions.open();
    expect((await one.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    await one.end();
  });

  it('refuses with SQLSTATE 08001, naming each host and why, when no host gives the session', async () => {
    const dead = await freePort();
    const other = await freePort();
    const err = await sessionsFor(`postgresql://u@127.0.0.1:${dead},127.0.0.1:${other}/db`)
      .open({ connectionTimeoutMillis: 2000 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NoSessionError);
    expect(err).toMatchObject({ code: '08001' });
    expect((err as Error).message).toContain(`127.0.0.1:${dead}:`);
    expect((err as Error).message).toContain(`127.0.0.1:${other}:`);
  });

  // Ending one session from another needs a server: the embedded database serves every client from one session.
  (process.env.DATABASE_URL ? it : it.skip)(
    'reports a session ended by the server, in use or idle, and the pool replaces it',
    async () => {
      const lostReasons: string[] = [];
      const sessions = sessionsFor(url);
      const pool = sessionPool(sessions, { max: 1, idleTimeoutMillis: 30_000, acquireTimeoutMillis: 5000 });
      const admin = new Client({ connectionString: url });
      await admin.connect();
      try {
        const idle = await sessions.open({}, (err) => lostReasons.push(err.message));
        const held = await pool.acquire();
        const pid = async (c: Client) =>
          (await c.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid;
        const idlePid = await pid(idle);
        const heldPid = await pid(held);
        // The held one is killed while it runs a statement; without a listener for life, its
        // 'error' would be thrown out of the event loop and end the process.
        const running = held.query('select pg_sleep(5)').catch((e: Error) => e);
        await admin.query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [
          [idlePid, heldPid],
        ]);
        expect(await running).toBeInstanceOf(Error);
        for (let i = 0; i < 100 && !(isLost(idle) && isLost(held)); i++)
          await new Promise((r) => setTimeout(r, 20));
        expect([isLost(idle), isLost(held)]).toEqual([true, true]);
        expect(lostReasons).toHaveLength(1);
        pool.release(held);
        const next = await pool.acquire();
        expect(next).not.toBe(held);
        expect(await pid(next)).not.toBe(heldPid);
        pool.release(next);
      } finally {
        await pool.end();
        await admin.end();
      }
    },
  );
});
