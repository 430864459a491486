import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { describeWithTool } from './debian-tools';
import { freePort } from './process';

/**
 * Throw-away PostgreSQL clusters of a test's own (initdb into a temporary folder, `pg_ctl` on a
 * free port of 127.0.0.1), for tests that stop, restart, kill or promote a server: never the
 * machine's shared server, which other tests and engineers use at the same time. A primary can
 * be given a streaming standby (pg_basebackup from 127.0.0.1), made synchronous by name.
 *
 * The programs are PostgreSQL's own (`PG_BIN`, default the newest /usr/lib/postgresql/<n>/bin);
 * as root they run as the `postgres` user, since the server refuses to run as root.
 */
const run = promisify(execFile);

export function pgBin(): string | undefined {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const newest = readdirSync(base)
    .filter((v) => existsSync(path.join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))[0];
  return newest && path.join(base, newest, 'bin');
}

/** `describe` for tests that start clusters: skipped with a warning without the programs (not in CI). */
export const describeWithClusters = (what: string): jest.Describe =>
  describeWithTool(`${pgBin() ?? '/usr/lib/postgresql/15/bin'}/initdb`, 'postgresql-15', what);

const asRoot = process.getuid?.() === 0;

/** A PostgreSQL program, as `postgres` when this process is root. */
async function program(name: string, args: string[]): Promise<string> {
  const bin = pgBin();
  if (!bin) throw new Error('no PostgreSQL server programs found (set PG_BIN)');
  const file = path.join(bin, name);
  const { stdout } = asRoot
    ? await run('runuser', ['-u', 'postgres', '--', file, ...args], { timeout: 120_000 })
    : await run(file, args, { timeout: 120_000 });
  return stdout;
}

export interface PgCluster {
  readonly name: string;
  readonly port: number;
  readonly dir: string;
  /** A URL of `database` on this server, as the superuser `postgres` (trust on 127.0.0.1). */
  url(database?: string): string;
  /** Runs one statement as the superuser on a connection of its own. */
  sql<R extends Record<string, unknown> = Record<string, unknown>>(
    text: string,
    params?: unknown[],
    database?: string,
  ): Promise<R[]>;
  start(): Promise<void>;
  /** `fast` ends sessions and checkpoints; `immediate` is a crash (what was not written is lost). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  restart(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Ends recovery on a standby: it becomes a primary accepting writes. */
  promote(): Promise<void>;
  /** Stops the server (immediately) and removes its folder. */
  remove(): Promise<void>;
}

/** Settings for a quick, small server that only this test uses. */
function settings(port: number, dir: string, extra: string[] = []): string {
  return [
    `port = ${port}`,
    `listen_addresses = '127.0.0.1'`,
    `unix_socket_directories = '${dir}'`,
    'max_connections = 100',
    'shared_buffers = 32MB',
    'wal_level = replica',
    'max_wal_senders = 5',
    'hot_standby = on',
    // A test stops processes, never the machine: what an immediate stop loses is the WAL not yet
    // written out of the server's memory, which fsync does not change; fsync only costs time here.
    'fsync = off',
    "log_min_messages = 'warning'",
    ...extra,
    '',
  ].join('\n');
}

function cluster(name: string, dir: string, port: number): PgCluster {
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'server.log');
  const url = (database = 'postgres') => `postgresql://postgres@127.0.0.1:${port}/${database}`;
  const self: PgCluster = {
    name,
    port,
    dir,
    url,
    async sql(text, params = [], database = 'postgres') {
      const client = new Client({ connectionString: url(database), connectionTimeoutMillis: 10_000 });
      client.on('error', () => undefined);
      await client.connect();
      try {
        return (await client.query(text, params)).rows;
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    async start() {
      await program('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', 'start']);
    },
    async stop(mode = 'fast') {
      await program('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
    },
    async restart(mode = 'fast') {
      await self.stop(mode);
      await self.start();
    },
    async promote() {
      await program('pg_ctl', ['-D', data, '-w', '-t', '60', 'promote']);
    },
    async remove() {
      await program('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return self;
}

/** A folder the server's user owns. */
function serverFolder(label: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `bms-pg-${label}-`));
  if (asRoot) {
    const { uid, gid } = postgresUser();
    chownSync(dir, uid, gid);
  }
  return dir;
}

function postgresUser(): { uid: number; gid: number } {
  const m = /uid=(\d+).*gid=(\d+)/.exec(execFileSync('id', ['postgres']).toString());
  if (!m) throw new Error('no postgres user to run the server as');
  return { uid: Number(m[1]), gid: Number(m[2]) };
}

/** A new primary, started. */
export async function startCluster(name = 'primary'): Promise<PgCluster> {
  const dir = serverFolder(name);
  const port = await freePort();
  const data = path.join(dir, 'data');
  await program('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  appendFileSync(path.join(data, 'postgresql.conf'), settings(port, dir));
  const made = cluster(name, dir, port);
  await made.start();
  return made;
}

/**
 * A streaming standby of `primary`, started and replaying, reporting as `name`. With
 * `synchronous`, the primary's commits then wait for it (`synchronous_standby_names`, with
 * `synchronous_commit` at its default, `on`: a commit is acknowledged once the standby has
 * flushed it). The standby itself names none, so once promoted it commits alone.
 */
export async function startStandby(
  primary: PgCluster,
  name = 'standby',
  { synchronous = true } = {},
): Promise<PgCluster> {
  const dir = serverFolder(name);
  const port = await freePort();
  const data = path.join(dir, 'data');
  await program('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-D',
    data,
    '-X',
    'stream',
    '-R',
    '--no-sync',
    // Its checkpoint at once, not spread over minutes as a busy server's would be.
    '--checkpoint=fast',
  ]);
  appendFileSync(
    path.join(data, 'postgresql.auto.conf'),
    [
      `port = ${port}`,
      `unix_socket_directories = '${dir}'`,
      `primary_conninfo = 'host=127.0.0.1 port=${primary.port} user=postgres application_name=${name}'`,
      "synchronous_standby_names = ''",
      '',
    ].join('\n'),
  );
  const made = cluster(name, dir, port);
  await made.start();
  await until(`${name} to stream from ${primary.name}`, async () => {
    const rows = await primary.sql(
      `select 1 from pg_stat_replication where application_name = $1 and state = 'streaming'`,
      [name],
    );
    return rows.length > 0;
  });
  if (synchronous) {
    await primary.sql(`alter system set synchronous_standby_names = '"${name}"'`);
    await primary.sql('select pg_reload_conf()');
    await until(`${name} to be synchronous`, async () => {
      const rows = await primary.sql(
        `select 1 from pg_stat_replication where application_name = $1 and sync_state = 'sync'`,
        [name],
      );
      return rows.length > 0;
    });
  }
  return made;
}

async function until(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
