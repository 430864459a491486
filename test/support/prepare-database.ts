import 'reflect-metadata';
import { prepareSchema } from './database';

/**
 * Run by global-setup.ts in a process of its own (MikroORM's metadata made in jest's own realm
 * would leak into the test sandboxes): migrates the database named by its argument.
 */
prepareSchema(process.argv[2]!).then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
