import { Client } from 'pg';
import type { MikroORM } from '@mikro-orm/core';
import { startHost, stopHost } from '../src/db/embedded';

/**
 * The bench's own database: a fresh one on the server, so a run never touches anyone's data and
 * always starts from the same empty state; dropped afterwards unless kept.
 */
export interface BenchDatabase {
  url: string;
  name: string;
  embedded: boolean;
  drop(): Promise<void>;
}

async function reachable(serverUrl: string): Promise<boolean> {
  const client = new Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function createBenchDatabase(serverUrl: string, named?: string): Promise<BenchDatabase> {
  if (!named && !(await reachable(serverUrl))) {
    // Without a server the run still works, on PGlite (one connection, in-process WASM), whose
    // figures say nothing about a PostgreSQL server: the report marks them so.
    const { child, port } = await startHost('memory://');
    return {
      url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
      name: 'embedded (memory)',
      embedded: true,
      drop: () => stopHost(child),
    };
  }
  const name =
    named ??
    `bms_bench_${new Date()
      .toISOString()
      .replace(/[-:TZ.]/g, '')
      .slice(0, 14)}_${process.pid}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    embedded: false,
    async drop() {
      const c = new Client({ connectionString: serverUrl });
      await c.connect();
      try {
        await c.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * The state autovacuum brings a table to after a bulk load: fresh planner statistics and a
 * visibility map, without which counts could not use index-only scans.
 */
export async function analyze(orm: MikroORM, tables: string[]): Promise<void> {
  for (const t of tables) await orm.em.getConnection().execute(`vacuum analyze "${t}"`);
}
