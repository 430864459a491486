/**
 * What an idle service costs: the built service (`dist/src/main.js`) started with no requests and
 * no subscribers, left alone until its loops have backed off to their longest waits, then its CPU
 * time (`/proc/<pid>/stat`, every thread) and its database's transactions (`pg_stat_database`)
 * over a window. Once on a fresh database of the PostgreSQL server, once on the embedded database
 * in a temporary DATA_DIR (whose transactions run in the process itself and are not counted).
 * The target (docs/operations.md, "What an operator sees"): under 1% of one core.
 *
 *   npm run bench:idle                                   # 60 s to settle, then 120 s measured, each database
 *   BENCH_IDLE_SETTLE_S=30 BENCH_IDLE_WINDOW_S=60 npm run bench:idle
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { benchConfig } from './config';
import { createBenchDatabase } from './database';
import { startService } from './processes';
import { table } from './report';

const SETTLE_S = Number(process.env.BENCH_IDLE_SETTLE_S ?? 60);
const WINDOW_S = Number(process.env.BENCH_IDLE_WINDOW_S ?? 120);
const TARGET = 0.01;

const sleep = (s: number) => new Promise((resolve) => setTimeout(resolve, s * 1000));
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** Transactions committed and rolled back in the database so far, less the one asking. */
async function transactions(url: string, name: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      'select xact_commit + xact_rollback as n from pg_stat_database where datname = $1',
      [name],
    );
    return Number(rows[0].n);
  } finally {
    await client.end();
  }
}

interface Reading {
  database: string;
  cpuShare: number;
  transactionsPerMinute?: number;
  loadBefore: string;
  loadAfter: string;
}

async function measure(database: string, databaseUrl: string, statsName?: string): Promise<Reading> {
  const service = await startService({
    databaseUrl,
    jwtSecret: randomBytes(32).toString('hex'),
    poolSize: 10,
    logLevel: 'warn',
  });
  try {
    await sleep(SETTLE_S);
    const loadBefore = load();
    // The statistics collector reports a backend's transactions when it goes idle: a pause first.
    const xactBefore = statsName ? await transactions(databaseUrl, statsName) : undefined;
    const cpuBefore = service.cpu()!;
    await sleep(WINDOW_S);
    const cpuAfter = service.cpu()!;
    const xactAfter = statsName ? await transactions(databaseUrl, statsName) : undefined;
    return {
      database,
      cpuShare: (cpuAfter - cpuBefore) / WINDOW_S,
      // One of the transactions counted is the bench's own first look.
      transactionsPerMinute:
        xactBefore === undefined ? undefined : ((xactAfter! - xactBefore - 1) * 60) / WINDOW_S,
      loadBefore,
      loadAfter: load(),
    };
  } finally {
    await service.stop();
  }
}

async function main(): Promise<void> {
  const config = benchConfig();
  const readings: Reading[] = [];
  const db = await createBenchDatabase(config.serverUrl);
  try {
    readings.push(
      await measure(
        db.embedded ? 'embedded (no server found)' : 'PostgreSQL server',
        db.url,
        db.embedded ? undefined : db.name,
      ),
    );
  } finally {
    await db.drop();
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-idle-'));
  process.env.DATA_DIR = dataDir;
  try {
    readings.push(await measure('embedded (DATA_DIR)', ''));
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(
    `\nIdle service, Node ${process.version}: ${SETTLE_S} s to settle, then ${WINDOW_S} s measured\n`,
  );
  console.log(
    table(
      ['database', 'CPU (share of one core)', 'transactions per minute', 'load average before / after'],
      readings.map((r) => [
        r.database,
        `${(r.cpuShare * 100).toFixed(2)}%`,
        r.transactionsPerMinute === undefined ? 'in-process' : r.transactionsPerMinute.toFixed(0),
        `${r.loadBefore} / ${r.loadAfter}`,
      ]),
    ),
  );
  const over = readings.filter((r) => r.cpuShare >= TARGET);
  console.log(
    over.length === 0
      ? `\nUnder ${TARGET * 100}% of a core on each database.`
      : `\nOver ${TARGET * 100}% of a core: ${over.map((r) => r.database).join(', ')}.`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
