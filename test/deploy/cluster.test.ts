import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '../support/http';
import {
  childEnv,
  errorLines,
  freePort,
  randomSecret,
  runSource,
  startService,
  type Running,
} from '../support/process';
import { REDIS_URL, deployment, eventually, type Deployment } from './deployment';

/**
 * WEB_CONCURRENCY: a primary with worker processes (src/cluster.ts). Settings it refuses are
 * checked on any database; serving, replacing a killed worker and stopping need the PostgreSQL
 * server at DATABASE_URL (and the Redis at REDIS_URL).
 */
jest.setTimeout(300_000);

const dataDir = mkdtempSync(path.join(tmpdir(), 'bms-cluster-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The ids of the worker processes of a primary. */
const workersOf = (pid: number): number[] =>
  execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
    .split('\n')
    .map((l) => Number(l.trim()))
    .filter(Boolean)
    .sort();

describe('WEB_CONCURRENCY that cannot work is refused in one line', () => {
  const refused = async (extra: Record<string, string>) => {
    const run = runSource('src/main.ts', [], childEnv({ DATA_DIR: dataDir, PORT: '1', ...extra }));
    const { code } = await run.exited;
    return { code, stderr: run.stderr() };
  };

  it('on the embedded database, which serves one process', async () => {
    expect(await refused({ WEB_CONCURRENCY: '2' })).toEqual({
      code: 1,
      stderr:
        'WEB_CONCURRENCY=2: the embedded database serves one process; set DATABASE_URL to run several\n',
    });
  });

  it('on a database server without Redis while rate limits are on', async () => {
    const settings = {
      WEB_CONCURRENCY: '3',
      DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none',
      JWT_SECRET: randomSecret(),
    };
    expect(await refused(settings)).toEqual({
      code: 1,
      stderr:
        'WEB_CONCURRENCY=3: processes share rate limits through Redis; set REDIS_URL (or RATE_LIMIT_PER_CREDENTIAL=0 and RATE_LIMIT_PER_TENANT=0)\n',
    });
  });
});

const onServer = process.env.DATABASE_URL ? describe : describe.skip;

/**
 * A GET on a connection of its own: the primary hands connections to the workers in turn, where
 * fetch would keep reusing one connection, and so one worker.
 */
const getAlone = (url: string): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });

/** The value of the sample of `name` whose labels include `labels` (0 when there is none). */
const sample = (text: string, name: string, labels: Record<string, string>): number => {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = text.split('\n').find(
    (l) =>
      l.startsWith(`${name}{`) &&
      wanted.every((w) =>
        l
          .slice(name.length + 1, l.lastIndexOf('}'))
          .split(',')
          .includes(w),
      ),
  );
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
};

onServer('WEB_CONCURRENCY=2 on a database server', () => {
  let d: Deployment;
  let primary: Running;
  let client: Client;
  let base: string;

  beforeAll(async () => {
    d = await deployment('cluster');
    const port = await freePort();
    primary = await startService(
      childEnv({
        DATABASE_URL: d.url,
        JWT_SECRET: d.secret,
        REDIS_URL,
        REDIS_KEY_PREFIX: d.redisPrefix,
        WEB_CONCURRENCY: '2',
        DB_POOL_SIZE: '3',
        DATA_DIR: dataDir,
        PORT: String(port),
      }),
    );
    await eventually('both workers to listen', async () =>
      primary.stdout().includes('"msg":"all workers listening"') ? true : undefined,
    );
    const tenant = await d.tenant('Cluster');
    base = `http://127.0.0.1:${port}`;
    client = new Client(base, tenant.token());
  });

  afterAll(async () => {
    if (primary?.child.exitCode === null) process.kill(-primary.child.pid!, 'SIGKILL');
    await d?.close();
  });

  it('answers a metrics scrape on either worker with the counters summed over both', async () => {
    const healthy = { method: 'GET', route: '/healthz', status: '200' };
    const scrape = async () => {
      const res = await getAlone(`${base}/metrics`);
      expect(res.status).toBe(200);
      return sample(res.body, 'http_requests_total', healthy);
    };
    const before = await scrape();
    // Ten connections, handed to the two workers in turn: each counts about half of them.
    for (let i = 0; i < 10; i++) expect((await getAlone(`${base}/healthz`)).status).toBe(200);
    // Consecutive scrapes land on different workers; each answers what both counted.
    expect([await scrape(), await scrape(), await scrape()]).toEqual([before + 10, before + 10, before + 10]);
  });

  it('serves from two workers, replaces a killed one, and exits 0 on SIGTERM once both have stopped', async () => {
    const workers = workersOf(primary.child.pid!);
    expect(workers).toHaveLength(2);
    // Requests are served (the primary hands each connection to a worker, in turn).
    for (let i = 0; i < 6; i++)
      expect((await client.post('/concepts', { name: `Cluster ${i}` })).status).toBe(201);
    expect(
      (await client.get('/concepts/find-all')).body.filter((c: any) => c.name.startsWith('Cluster')),
    ).toHaveLength(6);

    process.kill(workers[0], 'SIGKILL');
    await eventually('a replacement worker', async () =>
      primary.stdout().includes('"msg":"replacement worker listening"') ? true : undefined,
    );
    const now = workersOf(primary.child.pid!);
    expect(now).toHaveLength(2);
    expect(now).not.toContain(workers[0]);
    expect(now).toContain(workers[1]);
    for (let i = 0; i < 4; i++) expect((await client.get('/notifications/unread-count')).status).toBe(200);

    primary.child.kill('SIGTERM');
    const { code } = await primary.exited;
    // The killed worker is reported (at warn level); nothing at error level, nothing on stderr.
    expect({ code, errors: errorLines(primary.stdout()), stderr: primary.stderr() }).toEqual({
      code: 0,
      errors: [],
      stderr: '',
    });
    expect(primary.stdout()).toContain('"msg":"worker died; starting another"');
    expect(primary.stdout().match(/"msg":"stopped"/g)).toHaveLength(3);
    expect(() => process.kill(-primary.child.pid!, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  });
});
