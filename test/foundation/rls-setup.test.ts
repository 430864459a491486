import { Client } from 'pg';
import { workerDatabaseUrl } from '../support/database';

/**
 * Every process runs bms_enable_rls() when it starts. On a database already set up it must take
 * no table lock: a process starting beside one that serves would otherwise wait behind (or
 * deadlock with) the other's transactions. Here a transaction holds the weakest lock a read takes
 * on a tenant table while another connection runs the set-up with a short lock timeout.
 * (The embedded database runs one connection's statements at a time, so this needs a server.)
 */
const onServer = process.env.DATABASE_URL ? describe : describe.skip;

onServer('row-level security set-up at start', () => {
  it('takes no table lock when everything is already in place', async () => {
    const url = await workerDatabaseUrl();
    const reader = new Client({ connectionString: url });
    const starter = new Client({ connectionString: url });
    await Promise.all([reader.connect(), starter.connect()]);
    try {
      await reader.query('begin');
      await reader.query('lock table concept in access share mode');
      await starter.query(`set lock_timeout = '1s'`);
      await expect(starter.query('select bms_enable_rls()')).resolves.toBeDefined();
      const { rows } = await starter.query<{ on: boolean; forced: boolean }>(
        `select relrowsecurity as on, relforcerowsecurity as forced from pg_class where relname = 'concept'`,
      );
      expect(rows).toEqual([{ on: true, forced: true }]);
    } finally {
      await reader.query('rollback').catch(() => undefined);
      await Promise.all([reader.end(), starter.end()]);
    }
  });
});
