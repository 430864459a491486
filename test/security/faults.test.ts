import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { ChildProcess } from 'node:child_process';
import type { MikroORM } from '@mikro-orm/core';
import { createApp, type App } from '../../src/app';
import { signToken } from '../../src/auth/jwt';
import { startHost, stopHost } from '../../src/db/embedded';
import { migrate, openOrm } from '../../src/db/orm';
import { createLogger } from '../../src/logger';
import { createTenant } from '../../src/services/provisioning';
import { Client } from '../support/http';
import { ormComposition } from '../../src/orm-composition';

/**
 * The database goes away under write load and comes back: requests meanwhile answer 503 with
 * Retry-After (never 500, never hang), the service recovers by itself, and no write that was
 * acknowledged with 201 is missing afterwards. The database is a PGlite host of this test's own,
 * stopped and started on the same port and data directory, so no other test is disturbed.
 */
const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });

// Stopping and starting a database process is at the mercy of the machine's timing; a run that
// trips on that is tried again (its errors are still printed), the assertions stay as they are.
jest.retryTimes(2, { logErrorsBeforeRetry: true });

describe('database outage under load', () => {
  let dir: string;
  let port: number;
  let host: ChildProcess;
  let orm: MikroORM;
  let app: App;
  let client: Client;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bms-fault-'));
    port = await freePort();
    host = (await startHost(dir, port)).child;
    // The connections this file breaks on purpose are logged as warnings; not in the test output.
    const logger = createLogger('silent');
    orm = await openOrm({
      composition: ormComposition,
      clientUrl: `postgresql://postgres@127.0.0.1:${port}/postgres`,
      poolMax: 1,
      logger,
    });
    await migrate(orm);
    const jwt = { secret: randomBytes(32).toString('hex') };
    app = await createApp({ orm, jwt, logger, production: false });
    await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
    const { tenant, admin } = await createTenant(orm.em, {
      name: 'Faults',
      adminEmail: 'faults@example.test',
    });
    const token = signToken(jwt, { sub: admin.id, email: admin.email, tenantId: tenant.id });
    client = new Client(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, token);
    // An embedded host of its own, migrated from nothing: minutes on a busy two-core machine.
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await orm?.close(true);
    if (host) await stopHost(host);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('answers 503 with Retry-After during the outage, recovers without a restart, loses no acknowledged write', async () => {
    const acknowledged: string[] = [];
    const statuses = new Map<number, number>();
    let missingRetryAfter = 0;
    let stop = false;
    let slow = 0;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const started = Date.now();
        const res = await client.post('/concepts', { name: `w${w}-${i}` });
        // Recorded, not asserted here: an assertion thrown inside a worker would leave the others looping.
        if (Date.now() - started >= 15_000) slow++;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 201) acknowledged.push(res.body.id);
        else if (res.status === 503 && !res.headers.get('retry-after')) missingRetryAfter++;
        if (res.status !== 201) await new Promise((r) => setTimeout(r, 50));
      }
    };
    const load = Promise.all([0, 1, 2, 3].map(worker));
    await new Promise((r) => setTimeout(r, 1500));
    const beforeOutage = acknowledged.length;
    await stopHost(host);
    await new Promise((r) => setTimeout(r, 1500));
    host = (await startHost(dir, port)).child;
    // Recovery: the same process answers again once the database is back.
    const deadline = Date.now() + 20_000;
    let recovered = false;
    while (!recovered && Date.now() < deadline) {
      recovered =
        (await client.get('/readyz')).status === 200 &&
        (await client.get('/concepts/find-all')).status === 200;
      if (!recovered) await new Promise((r) => setTimeout(r, 200));
    }
    await new Promise((r) => setTimeout(r, 1000));
    stop = true;
    await load;

    expect(recovered).toBe(true);
    expect(slow).toBe(0);
    expect(beforeOutage).toBeGreaterThan(0);
    expect(statuses.get(503) ?? 0).toBeGreaterThan(0);
    expect(missingRetryAfter).toBe(0);
    expect([...statuses.keys()].filter((s) => s !== 201 && s !== 503)).toEqual([]);
    const stored = new Set<string>();
    for (let i = 0; i < acknowledged.length; i += 500) {
      const ids = acknowledged.slice(i, i + 500).join(',');
      for (const c of (await client.get(`/concepts/find?ids=${ids}`)).body) stored.add(c.id);
    }
    const missing = acknowledged.filter((id) => !stored.has(id));
    expect(missing).toEqual([]);
  }, 120_000);
});
