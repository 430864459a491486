import type { ChildProcess } from 'node:child_process';
import { Client } from 'pg';
import { stopHost } from '../../src/db/embedded';

export default async function globalTeardown(): Promise<void> {
  const hosts: ChildProcess[] = (globalThis as any).__pgliteHosts ?? [];
  await Promise.all(hosts.map((host) => stopHost(host)));
  const prefix = process.env.TEST_DATABASE_PREFIX;
  if (prefix && process.env.DATABASE_URL && !process.env.KEEP_TEST_DATABASES) {
    const admin = new Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const { rows } = await admin.query(`select datname from pg_database where datname like $1`, [
      `${prefix}%`,
    ]);
    for (const { datname } of rows) await admin.query(`drop database if exists "${datname}" with (force)`);
    await admin.end();
  }
}
