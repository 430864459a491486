/**
 * Configuration for MikroORM's own tooling (schema diff, migration generation) against
 * DATABASE_URL. The service itself builds its options in src/db/orm.ts.
 */
import 'reflect-metadata';
import { ormOptions } from './src/db/orm';
import { ormComposition } from './src/orm-composition';

export default ormOptions({
  clientUrl: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  poolMax: 1,
  composition: ormComposition,
});
