/**
 * The push scenario of `npm run bench` (BENCH_PUSH_SCENARIO=1): the built service (one process)
 * on a fresh database, a recipient with BENCH_PUSH_DEVICES (3) browsers registered through the
 * API, and notifications created through REST with BENCH_CONNECTIONS (8) connections for
 * BENCH_PUSH_SECONDS (10) a round. BENCH_PUSH_ROUNDS (5) pairs of rounds, the order alternating
 * within each pair: one with Web Push off (no VAPID keys: what a create cost before push existed,
 * as nothing is fanned out) and one on, to a Web Push service on 127.0.0.1 in this process that
 * answers 201 at once. Reports each pair's ratio of creates per second (on / off), their median
 * and range, and the service's CPU per create.
 *
 * Then what one process can push: a second recipient with BENCH_PUSH_CAPACITY_DEVICES (30)
 * devices gets BENCH_PUSH_CAPACITY_NOTIFICATIONS (300) notifications, created while the push
 * service holds every answer, so the deliveries wait; once they are all in, it answers again and
 * the bench times the process sending them all.
 *
 * BENCH_PUSH_PROFILE=<folder> writes a CPU profile of each service process there.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import webpush from 'web-push';
import { createUser } from '../src/services/provisioning';
import { scenarioTenant } from './scenario-tenant';
import { drive } from './drive';
import { startService } from './processes';

const SECONDS = Number(process.env.BENCH_PUSH_SECONDS ?? 10);
const DEVICES = Number(process.env.BENCH_PUSH_DEVICES ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const ROUNDS = Number(process.env.BENCH_PUSH_ROUNDS ?? 5);
const CAPACITY_DEVICES = Number(process.env.BENCH_PUSH_CAPACITY_DEVICES ?? 30);
const CAPACITY_NOTIFICATIONS = Number(process.env.BENCH_PUSH_CAPACITY_NOTIFICATIONS ?? 300);

interface Round {
  push: boolean;
  creates: number;
  createsPerSecond: number;
  /** The service's CPU time per create, milliseconds. */
  cpuPerCreate: number | null;
  pushesDuringLoad: number;
  pushesPerSecondDuringLoad: number;
  drainSeconds: number;
  loadAverage: number[];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
const loadAverage = () => loadavg().map((x) => Math.round(x * 10) / 10);

/**
 * A Web Push service that takes every push (201) and counts them; while held, it answers none
 * until released.
 */
async function startPushService() {
  let count = 0;
  let held: (() => void)[] | null = null;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const answer = () => {
        count++;
        res.writeHead(201).end();
      };
      if (held) held.push(answer);
      else answer();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    count: () => count,
    hold: () => {
      held = [];
    },
    release: () => {
      const waiting = held ?? [];
      held = null;
      for (const answer of waiting) answer();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A PushSubscription as a browser would make it, for `endpoint`. */
function subscription(endpoint: string) {
  const keys = webpush.generateVAPIDKeys();
  return JSON.stringify({
    endpoint,
    keys: { p256dh: keys.publicKey, auth: randomBytes(16).toString('base64url') },
  });
}

export async function pushScenario(log: (line: string) => void = console.log): Promise<Round[]> {
  const { db, orm, tenant, admin, secret, tokenOf, close } = await scenarioTenant('Push');
  const pushService = await startPushService();
  const rounds: Round[] = [];
  try {
    const recipient = async (email: string) =>
      createUser(orm.em, {
        tenantId: tenant.id,
        email,
        roles: [],
        hasFullAccess: false,
        actorEmail: admin.email,
      });
    const few = await recipient('recipient@push.test');
    const many = await recipient('many-devices@push.test');
    // The push service is on 127.0.0.1, which only this setting lets a subscription name.
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
    const vapid = webpush.generateVAPIDKeys();
    const serviceWith = async (push: boolean) => {
      if (push)
        Object.assign(process.env, {
          VAPID_PUBLIC_KEY: vapid.publicKey,
          VAPID_PRIVATE_KEY: vapid.privateKey,
        });
      else for (const name of ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY']) delete process.env[name];
      return startService({
        databaseUrl: db.url,
        jwtSecret: secret,
        poolSize: 10,
        logLevel: 'warn',
        profileDir: process.env.BENCH_PUSH_PROFILE || undefined,
      });
    };
    const post = async (base: string, token: string, path: string, body: unknown) => {
      const res = await fetch(`${base}/api/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
    };
    const registerDevices = async (base: string, user: typeof few, count: number) => {
      for (let i = 0; i < count; i++)
        await post(base, tokenOf(user), '/notifications/push-tokens', {
          platform: 'WEB',
          token: subscription(`${pushService.url}/${user.id}/${i}`),
        });
    };
    const allSent = async (from: number, expected: number) => {
      while (pushService.count() - from < expected) await new Promise((r) => setTimeout(r, 50));
    };

    let n = 0;
    for (let pair = 0; pair < ROUNDS; pair++) {
      for (const push of pair % 2 ? [true, false] : [false, true]) {
        const service = await serviceWith(push);
        try {
          if (rounds.length === 0) {
            await registerDevices(service.base, few, DEVICES);
            await registerDevices(service.base, many, CAPACITY_DEVICES);
          }
          const before = pushService.count();
          const cpuBefore = service.cpu();
          const load = await drive({
            base: service.base,
            token: tokenOf(admin),
            connections: CONNECTIONS,
            duration: SECONDS,
            request: () => ({
              method: 'POST',
              path: '/api/v1/notifications',
              body: JSON.stringify({ title: `Load ${n++}`, body: 'A notification', username: few.email }),
            }),
          });
          const cpuAfter = service.cpu();
          const creates = load.requests - load.failures;
          if (creates === 0) throw new Error(`no create succeeded (${load.failures} failures)`);
          const ended = Date.now();
          const during = pushService.count() - before;
          await Promise.race([
            allSent(before, push ? creates * DEVICES : 0),
            new Promise((r) => setTimeout(r, 300_000)),
          ]);
          const round: Round = {
            push,
            creates,
            createsPerSecond: Math.round(creates / load.seconds),
            cpuPerCreate:
              cpuBefore === undefined || cpuAfter === undefined
                ? null
                : Math.round(((cpuAfter - cpuBefore) * 1000 * 100) / creates) / 100,
            pushesDuringLoad: during,
            pushesPerSecondDuringLoad: Math.round(during / load.seconds),
            drainSeconds: (Date.now() - ended) / 1000,
            loadAverage: loadAverage(),
          };
          rounds.push(round);
          log(JSON.stringify(round));
        } finally {
          await service.stop();
        }
      }
    }
    const pairs = Array.from({ length: ROUNDS }, (_, i) => rounds.slice(2 * i, 2 * i + 2));
    const ratios = pairs.map(
      (p) => p.find((r) => r.push)!.createsPerSecond / p.find((r) => !r.push)!.createsPerSecond,
    );
    const cpu = (push: boolean) =>
      median(rounds.filter((r) => r.push === push).map((r) => r.cpuPerCreate ?? NaN));
    log(
      `creates/s with Web Push to ${DEVICES} devices against without, median of ${ROUNDS} pairs: ` +
        `${median(ratios).toFixed(2)} (pairs ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}); ` +
        `service CPU per create ${cpu(true)} ms on, ${cpu(false)} ms off`,
    );

    // Capacity: the deliveries wait behind a held push service, then go at the process's pace.
    // No request may time out while held: a timed-out push would be sent again and counted twice.
    process.env.WEBHOOK_TIMEOUT_MS = '120000';
    const service = await serviceWith(true);
    try {
      pushService.hold();
      const before = pushService.count();
      for (let i = 0; i < CAPACITY_NOTIFICATIONS; i++)
        await post(service.base, tokenOf(admin), '/notifications', {
          title: `Capacity ${i}`,
          body: 'A notification',
          username: many.email,
        });
      const load = loadAverage();
      const started = performance.now();
      pushService.release();
      const expected = CAPACITY_NOTIFICATIONS * CAPACITY_DEVICES;
      await allSent(before, expected);
      const seconds = (performance.now() - started) / 1000;
      log(
        `one process pushed ${expected} (${CAPACITY_NOTIFICATIONS} notifications to ${CAPACITY_DEVICES} devices) ` +
          `in ${seconds.toFixed(1)} s: ${Math.round(expected / seconds)} pushes/s (load average ${load.join(' ')})`,
      );
    } finally {
      await service.stop();
    }
    return rounds;
  } finally {
    await pushService.close();
    await close();
  }
}

if (require.main === module)
  pushScenario().catch((err) => {
    console.error(err);
    process.exit(1);
  });
