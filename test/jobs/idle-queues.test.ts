import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { MikroORM } from '@mikro-orm/core';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { openOrm } from '../../src/db/orm';
import { createLogger } from '../../src/logger';
import { startCoverageWorker } from '../../src/domain/configurator/coverage-worker';
import { startInvoicePdfs } from '../../src/domain/finance/invoice-pdf-queue';
import { startFileJobs } from '../../src/domain/files/file-jobs';
import type { Periodic } from '../../src/jobs/periodic';
import { startExportJobs } from '../../src/jobs/tenant-exports';
import { workerDatabaseUrl } from '../support/database';
import { startServer, type TestServer } from '../support/server';
import { ormComposition } from '../../src/orm-composition';

/**
 * The queue loops of a process (coverage jobs, thumbnails, tenant exports, invoice PDFs) are quiet while idle:
 * each looks less and less often while it finds nothing, up to its longest wait (docs/operations.md,
 * "What an operator sees"), and an export asked for in this process is taken at once, not at the next
 * look. Counted as statements sent by the loops' own pool: the test service's event worker, run
 * beside them, drains whatever earlier test files left in the same database.
 */
jest.setTimeout(120_000);

const FIRST_MS = 50;
const IDLE_MAX_MS = 1000;
const WINDOW_MS = 5000;
const logger = createLogger('silent');

let server: TestServer;
/** The loops' own ORM, whose pool's statements are the ones counted. */
let loopsOrm: MikroORM<PostgreSqlDriver>;
let dataDir: string;
beforeAll(async () => {
  server = await startServer();
  loopsOrm = await openOrm({
    composition: ormComposition,
    clientUrl: await workerDatabaseUrl(),
    poolMax: 4,
    logger,
  });
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'idle-queues-'));
}, 120_000);
afterAll(async () => {
  await loopsOrm?.close(true);
  await server?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** The connections of the loops' pool in use now: a statement is sent on one it has lent. */
function lentByLoops(client: pg.Client): boolean {
  const pool = (loopsOrm.em.getConnection().getKnex().client as { pool: { used: { resource: unknown }[] } })
    .pool;
  return pool.used.some((u) => u.resource === client);
}

/** Counts the statements the loops' clients send while `during` runs. */
async function statementsDuring(during: () => Promise<void>): Promise<string[]> {
  const sent: string[] = [];
  const query = pg.Client.prototype.query;
  const spy = jest.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
    this: pg.Client,
    ...args: unknown[]
  ) {
    const first = args[0] as string | { text?: string };
    if (lentByLoops(this)) sent.push(typeof first === 'string' ? first : String(first?.text));
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query);
  try {
    await during();
    return sent;
  } finally {
    spy.mockRestore();
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

it('idle queue loops send no statement more often than their longest wait', async () => {
  const loops: Periodic[] = [];
  try {
    const sent = await statementsDuring(async () => {
      loops.push(
        startCoverageWorker(loopsOrm, logger, { pollIntervalMs: FIRST_MS, idlePollMaxMs: IDLE_MAX_MS }),
        startFileJobs(loopsOrm, server.app.files, logger, FIRST_MS, IDLE_MAX_MS),
        startExportJobs(loopsOrm, server.app.files.backend, dataDir, logger, FIRST_MS, {
          maxMs: IDLE_MAX_MS,
        }),
        startInvoicePdfs(loopsOrm, server.app.files, logger, { firstMs: FIRST_MS, maxMs: IDLE_MAX_MS }),
      );
      // From the first wait, doubling, the waits reach the longest within about 2 s.
      await sleep(2 * IDLE_MAX_MS + 500);
    });
    expect(sent.length).toBeGreaterThan(0);
    // Four loops, each looking at most once per IDLE_MAX_MS (and once more at the window's
    // edge); a look is a transaction: BEGIN, the worker's setting, the claim, COMMIT.
    const bound = 4 * (WINDOW_MS / IDLE_MAX_MS + 1) * 4;
    // Idle means nothing to do: what earlier test files left in this database (images to
    // thumbnail, coverage jobs, exports, invoice PDFs) is done first, a few windows at most.
    let idle: string[] = [];
    for (let window = 0; window < 6; window++) {
      idle = await statementsDuring(() => sleep(WINDOW_MS));
      if (idle.length <= bound) break;
    }
    if (idle.length > bound) {
      const counts = new Map<string, number>();
      for (const text of idle) counts.set(text.slice(0, 100), (counts.get(text.slice(0, 100)) ?? 0) + 1);
      const busiest = [...counts].sort((x, y) => y[1] - x[1]).slice(0, 5);
      throw new Error(
        `${idle.length} statements in an idle window (at most ${bound}): ${JSON.stringify(busiest)}`,
      );
    }
    // At the first wait, the same window would have taken a hundred looks per loop.
    expect(idle.length).toBeLessThan(WINDOW_MS / FIRST_MS);
  } finally {
    await Promise.all(loops.map((loop) => loop.stop()));
  }
});

it('an export asked for in this process is taken at once by an idle loop', async () => {
  const tenant = await server.tenant('Idle exports');
  // The loop looks at once, then not before FIRST wait has passed.
  const first = 8000;
  const since = Date.now();
  const jobs = startExportJobs(server.orm, server.app.files.backend, dataDir, logger, first, {
    maxMs: 30_000,
  });
  try {
    await sleep(300);
    const started = await tenant.client.post('/tenant-exports');
    expect(started.status).toBe(201);
    let status = 'PENDING';
    while (status === 'PENDING' && Date.now() - since < first) {
      await sleep(20);
      status = (await tenant.client.get(`/tenant-exports/${started.body.id}`)).body.status;
    }
    // Taken before the loop's next timed look.
    expect(status).not.toBe('PENDING');
  } finally {
    await jobs.stop();
  }
});
