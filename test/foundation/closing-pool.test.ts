import { openOrm } from '../../src/db/orm';
import { ormComposition } from '../../src/orm-composition';
import { workerDatabaseUrl } from '../support/database';

/**
 * A connection asked for while the ORM closes is refused at once. knex's pool, once being
 * destroyed, queues such a request and answers it only at its acquire timeout, a minute later, and
 * the close waits for it: a Ctrl-C while the service migrated (the migrator's next transaction
 * asking for the pool's one connection) held the process that long.
 */
it('refuses a connection asked for while the ORM closes, and the close ends without waiting for it', async () => {
  const orm = await openOrm({
    composition: ormComposition,
    clientUrl: await workerDatabaseUrl(),
    poolMax: 1,
  });
  // The pool's one connection held by a transaction, as the migrator holds it.
  let begun!: () => void;
  let finish!: () => void;
  const started = new Promise<void>((resolve) => (begun = resolve));
  const held = orm.em.fork().transactional(async (em) => {
    await em.getConnection().execute('select 1', [], 'all', em.getTransactionContext());
    begun();
    await new Promise<void>((resolve) => (finish = resolve));
  });
  await started;

  const closed = orm.close(true);
  const asked = orm.em.fork().getConnection().execute('select 1');
  await expect(asked).rejects.toThrow('the database connection is closed');
  finish();
  await held.catch(() => undefined);
  await closed;
}, 10_000);
