/** `npm run migration:create`: the migration writer of src/db/ over the app's entities. */
import 'reflect-metadata';
import { createMigration } from './db/create-migration';
import { ormComposition } from './orm-composition';

createMigration(ormComposition).catch((err) => {
  console.error(err);
  process.exit(1);
});
