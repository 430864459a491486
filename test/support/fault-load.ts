import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { signToken } from '../../src/auth/jwt';
import { openOrm } from '../../src/db/orm';
import { createTenant } from '../../src/services/provisioning';
import { startReceiver } from '../events/receiver';
import { ormComposition } from '../../src/orm-composition';
import { childEnv, freePort, randomSecret, startService, type Running } from './process';

/**
 * A service process under write load while its database fails, and what proves it survived: the
 * writers (half of them with an Idempotency-Key, retried with the same key until acknowledged),
 * a webhook endpoint receiving every concept's `concept.created`, and the checks afterwards.
 */
export interface FaultedService {
  service: Running;
  base: string;
  token: string;
  receiver: Awaited<ReturnType<typeof startReceiver>>;
  stop(): Promise<void>;
}

/** The service on `url` (one process), a tenant, and a webhook endpoint for its concepts. */
export async function startFaultedService(
  url: string,
  env: Record<string, string> = {},
  /** A URL of the same database for the test's own set-up (a single host). */
  setupUrl = url,
): Promise<FaultedService> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bms-faults-'));
  const port = await freePort();
  const secret = randomSecret();
  const receiver = await startReceiver();
  const service = await startService(
    childEnv({
      DATABASE_URL: url,
      JWT_SECRET: secret,
      DATA_DIR: dataDir,
      PORT: String(port),
      WEB_CONCURRENCY: '1',
      RATE_LIMIT_PER_CREDENTIAL: '0',
      RATE_LIMIT_PER_TENANT: '0',
      DB_POOL_SIZE: '4',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      EVENT_POLL_INTERVAL_MS: '100',
      EVENT_LEASE_MS: '2000',
      // The writes here must all be answered as soon as the database is back: holding a lagging
      // tenant's writes is test/events/lag-bound.test.ts's to prove.
      EVENT_LAG_BOUND_MS: '0',
      ...env,
    }),
  );
  const orm = await openOrm({ composition: ormComposition, clientUrl: setupUrl, poolMax: 1 });
  let token: string;
  try {
    const { tenant, admin } = await createTenant(orm.em, { name: 'Faults', adminEmail: 'admin@faults.test' });
    token = signToken({ secret }, { sub: admin.id, email: admin.email, tenantId: tenant.id }, 7200);
  } finally {
    await orm.close(true);
  }
  const base = `http://127.0.0.1:${port}`;
  const hook = await post(base, token, '/webhooks', {
    url: `${receiver.url}/concepts`,
    events: ['concept.created'],
  });
  if (hook.status !== 201) throw new Error(`webhook endpoint not created: ${hook.status} ${hook.text}`);
  return {
    service,
    base,
    token,
    receiver,
    async stop() {
      if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGTERM');
      await service.exited;
      await receiver.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface Answer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

async function post(base: string, token: string, route: string, body: object, headers = {}): Promise<Answer> {
  const res = await fetch(`${base}/api/v1${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** What the writers saw. */
export interface LoadReport {
  /** The names of the concepts acknowledged with 201. */
  acknowledged: string[];
  /** The names written with an Idempotency-Key (each stored once at most, however often retried). */
  keyed: string[];
  statuses: Record<number, number>;
  /** 503s without Retry-After or without the documented error body. */
  badRefusals: string[];
  /** Requests that got no HTTP answer at all (the process gone, a connection refused or reset). */
  unanswered: string[];
  /** The longest a request took, in ms. */
  slowest: number;
}

/**
 * `writers` writers creating concepts through REST until stopped; the odd ones send an
 * Idempotency-Key and retry a refused write with the same key and body until it is acknowledged
 * (a 503's Retry-After honoured, capped so the test stays short), the even ones move on to the
 * next name. Every answer must be 201 or a 503 with Retry-After in the error body.
 */
export function conceptLoad(f: FaultedService, label: string, writers = 6) {
  const report: LoadReport = {
    acknowledged: [],
    keyed: [],
    statuses: {},
    badRefusals: [],
    unanswered: [],
    slowest: 0,
  };
  let writing = true;
  let stoppedAt = 0;
  const write = async (name: string, key?: string): Promise<boolean> => {
    const started = Date.now();
    let res: Answer;
    try {
      res = await post(f.base, f.token, '/concepts', { name }, key ? { 'idempotency-key': key } : {});
    } catch (err) {
      report.unanswered.push(`${name}: ${(err as Error).cause ?? (err as Error).message}`);
      await new Promise((r) => setTimeout(r, 100));
      return false;
    } finally {
      report.slowest = Math.max(report.slowest, Date.now() - started);
    }
    report.statuses[res.status] = (report.statuses[res.status] ?? 0) + 1;
    if (res.status === 201) {
      report.acknowledged.push(name);
      return true;
    }
    const after = Number(res.headers.get('retry-after'));
    if (res.status === 503 && !(after > 0 && res.body?.title && res.body?.detail && res.body?.time))
      report.badRefusals.push(`${res.status} retry-after=${res.headers.get('retry-after')} ${res.text}`);
    await new Promise((r) => setTimeout(r, Math.min(200, (after || 0.05) * 1000)));
    return false;
  };
  const writer = async (n: number) => {
    for (let i = 0; writing; i++) {
      const name = `${label} w${n} ${i}`;
      if (n % 2 === 1) {
        const key = randomUUID();
        report.keyed.push(name);
        // Retried until acknowledged, for a while even after the load is told to stop.
        while (!(await write(name, key)) && (writing || Date.now() - stoppedAt < 30_000));
      } else await write(name);
    }
  };
  const running = Array.from({ length: writers }, (_, n) => writer(n));
  return {
    report,
    /** Resolves once `count` more writes than now are acknowledged (rejects after `ms`). */
    async more(count: number, ms = 30_000): Promise<number> {
      const target = report.acknowledged.length + count;
      const started = Date.now();
      while (report.acknowledged.length < target) {
        const { exitCode, signalCode } = f.service.child;
        if (exitCode !== null || signalCode !== null)
          throw new Error(
            `the service exited (${exitCode ?? signalCode}):\n${f.service.stderr().slice(-2000)}`,
          );
        if (Date.now() - started > ms)
          throw new Error(
            `writes did not resume within ${ms} ms: answers ${JSON.stringify(report.statuses)}, ` +
              `${report.unanswered.length} unanswered (${report.unanswered.slice(-3).join('; ')})`,
          );
        await new Promise((r) => setTimeout(r, 20));
      }
      return Date.now() - started;
    },
    async stop(): Promise<LoadReport> {
      writing = false;
      stoppedAt = Date.now();
      await Promise.all(running);
      return report;
    },
  };
}

/**
 * The checks after the faults, against what the database holds (`sql`, as its owner): every
 * acknowledged write stored, each keyed write stored once, and every stored concept's webhook
 * arrived exactly once (by its `webhook-id`, the event's id). Waits up to `drainMs` for the
 * deliveries.
 */
export async function survivalFindings(
  f: FaultedService,
  label: string,
  report: LoadReport,
  sql: (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>,
  drainMs = 60_000,
) {
  const rows = await sql(`select name, count(*)::int as n from concept where name like $1 group by name`, [
    `${label} %`,
  ]);
  const stored = new Map(rows.map((r) => [r.name as string, r.n as number]));
  const lost = report.acknowledged.filter((name) => !stored.has(name));
  const keyedTwice = report.keyed.filter((name) => (stored.get(name) ?? 0) > 1);
  const arrived = () =>
    f.receiver
      .at('/concepts')
      .map((r) => ({
        id: r.headers['webhook-id'],
        name: (JSON.parse(r.body) as { data: { name: string } }).data.name,
      }))
      .filter((r) => r.name.startsWith(`${label} `));
  const until = Date.now() + drainMs;
  let undelivered: string[] = [];
  for (;;) {
    const names = new Set(arrived().map((r) => r.name));
    undelivered = [...stored.keys()].filter((name) => !names.has(name));
    if (undelivered.length === 0 || Date.now() > until) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const ids = arrived().map((r) => r.id);
  const duplicated = ids.filter((id, i) => ids.indexOf(id) !== i);
  return { stored: stored.size, lost, keyedTwice, undelivered, duplicated };
}

/**
 * What every fault test asserts once its load has stopped: the process is up, every request got an
 * answer, each a 201 or a 503 with Retry-After in the error body, and survivalFindings found
 * nothing lost, stored twice, undelivered or delivered twice.
 */
export async function expectSurvived(
  f: FaultedService,
  label: string,
  report: LoadReport,
  sql: (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>,
): Promise<void> {
  const found = await survivalFindings(f, label, report, sql);
  expect(f.service.child.exitCode).toBeNull();
  expect(report.unanswered).toEqual([]);
  expect(report.badRefusals).toEqual([]);
  expect(Object.keys(report.statuses).filter((s) => s !== '201' && s !== '503')).toEqual([]);
  expect(found).toEqual({
    stored: expect.any(Number),
    lost: [],
    keyedTwice: [],
    undelivered: [],
    duplicated: [],
  });
}
