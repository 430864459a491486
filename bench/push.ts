/**
 * The push scenario of `npm run bench` (BENCH_PUSH_SCENARIO=1): the built service (one process)
 * on a fresh database, a recipient with BENCH_PUSH_DEVICES (3) browsers registered through the
 * API, and notifications created through REST with BENCH_CONNECTIONS (8) connections for
 * BENCH_PUSH_SECONDS (10), twice in one run: first with Web Push off (no VAPID keys: what a
 * create cost before push existed, as nothing is fanned out), then on, to a Web Push service on
 * 127.0.0.1 in this process that answers 201 at once. Reports the creates per second of each and
 * their ratio, and the pushes per second the service's one event worker made during the load and
 * while it drained what was left.
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

interface Round {
  push: boolean;
  creates: number;
  createsPerSecond: number;
  pushesDuringLoad: number;
  pushesPerSecondDuringLoad: number;
  drainSeconds: number;
  pushesPerSecondDraining: number;
  loadAverage: number[];
}

/** A Web Push service that takes every push at once (201) and counts them. */
async function startPushService() {
  let count = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count++;
      res.writeHead(201).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    count: () => count,
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
    const recipient = await createUser(orm.em, {
      tenantId: tenant.id,
      email: 'recipient@push.test',
      roles: [],
      hasFullAccess: false,
      actorEmail: admin.email,
    });
    // The push service is on 127.0.0.1, which only this setting lets a subscription name.
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
    const vapid = webpush.generateVAPIDKeys();
    for (const push of [false, true]) {
      if (push)
        Object.assign(process.env, {
          VAPID_PUBLIC_KEY: vapid.publicKey,
          VAPID_PRIVATE_KEY: vapid.privateKey,
        });
      else for (const name of ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY']) delete process.env[name];
      const service = await startService({
        databaseUrl: db.url,
        jwtSecret: secret,
        poolSize: 10,
        logLevel: 'warn',
      });
      try {
        if (!push)
          for (let i = 0; i < DEVICES; i++) {
            const res = await fetch(`${service.base}/api/v1/notifications/push-tokens`, {
              method: 'POST',
              headers: { authorization: `Bearer ${tokenOf(recipient)}`, 'content-type': 'application/json' },
              body: JSON.stringify({
                platform: 'WEB',
                token: subscription(`${pushService.url}/device/${i}`),
              }),
            });
            if (res.status !== 201)
              throw new Error(`registering a device: ${res.status} ${await res.text()}`);
          }
        const before = pushService.count();
        let n = 0;
        const load = await drive({
          base: service.base,
          token: tokenOf(admin),
          connections: CONNECTIONS,
          duration: SECONDS,
          request: () => ({
            method: 'POST',
            path: '/api/v1/notifications',
            body: JSON.stringify({ title: `Load ${n++}`, body: 'A notification', username: recipient.email }),
          }),
        });
        const creates = load.requests - load.failures;
        if (creates === 0) throw new Error(`no create succeeded (${load.failures} failures)`);
        const ended = Date.now();
        const during = pushService.count() - before;
        const expected = push ? creates * DEVICES : 0;
        while (pushService.count() - before < expected && Date.now() - ended < 300_000)
          await new Promise((r) => setTimeout(r, 100));
        const drainSeconds = (Date.now() - ended) / 1000;
        const round: Round = {
          push,
          creates,
          createsPerSecond: Math.round(creates / load.seconds),
          pushesDuringLoad: during,
          pushesPerSecondDuringLoad: Math.round(during / load.seconds),
          drainSeconds,
          pushesPerSecondDraining: Math.round(
            (pushService.count() - before - during) / Math.max(drainSeconds, 0.001),
          ),
          loadAverage: loadavg().map((x) => Math.round(x * 10) / 10),
        };
        rounds.push(round);
        log(JSON.stringify(round));
      } finally {
        await service.stop();
      }
    }
    const [off, on] = rounds;
    log(
      `creates/s with Web Push to ${DEVICES} devices against without: ${(on.createsPerSecond / off.createsPerSecond).toFixed(2)}; ` +
        `one process pushed ${on.pushesPerSecondDuringLoad}/s during the load and ${on.pushesPerSecondDraining}/s draining`,
    );
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
