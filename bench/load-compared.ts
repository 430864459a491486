import { createRequire } from 'node:module';
import path from 'node:path';
import { ormComposition } from '../src/orm-composition';
import type { LoadedTenant, TenantShape } from './load-data';

/**
 * The compared checkout's database, made by that checkout's own code (bench/compared.ts forks
 * this): its migrations as its start-up runs them (its test support's `prepareSchema`), then
 * the tenants of the given shapes and seeds through its own bench loader, which writes records
 * the way that build stores them. A child process, so that the other checkout's modules
 * (its MikroORM and entities) never meet this one's.
 */
interface Job {
  root: string;
  url: string;
  poolMax: number;
  tenants: { shape: TenantShape; seed: number }[];
  tables: string[];
}

async function main(job: Job): Promise<LoadedTenant[]> {
  const load = createRequire(path.join(job.root, 'package.json'));
  const from = (file: string) => load(path.join(job.root, 'dist', file));
  load('reflect-metadata');
  const { MikroORM } = load('@mikro-orm/core');
  const { prepareSchema } = from('test/support/database.js');
  const { ormOptions } = from('src/db/orm.js');
  const { loadTenant } = from('bench/load-data.js');
  await prepareSchema(job.url);
  const orm = await MikroORM.init({
    ...ormOptions({ composition: ormComposition, clientUrl: job.url, poolMax: job.poolMax }),
    driverOptions: { connection: { connectionTimeoutMillis: 60_000, statement_timeout: 300_000 } },
  });
  try {
    const loaded: LoadedTenant[] = [];
    for (const { shape, seed } of job.tenants) {
      const started = Date.now();
      loaded.push(await loadTenant(orm, shape, seed));
      console.log(
        `  compared: ${shape.name}: ${shape.features} features: ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    }
    for (const t of job.tables) await orm.em.getConnection().execute(`vacuum analyze "${t}"`);
    return loaded;
  } finally {
    await orm.close(true);
  }
}

process.once('message', (job: Job) => {
  main(job).then(
    (tenants) => process.send!({ tenants }, undefined, {}, () => process.exit(0)),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
});
