import { conceptLoad, startFaultedService, expectSurvived, type FaultedService } from '../support/fault-load';
import { describeWithClusters, startCluster, type PgCluster } from '../support/pg-cluster';

/**
 * A service process under write load (six writers, half with an Idempotency-Key) with a webhook
 * endpoint, on a PostgreSQL server of this test's own: every backend of its database terminated
 * several times, then the server restarted. The process stays up, writes resume, no acknowledged
 * write is lost, no keyed write is stored twice, and every stored write's webhook arrives once.
 */
jest.setTimeout(240_000);

describeWithClusters('the database survival test')('the service survives its database', () => {
  let pg: PgCluster;
  let f: FaultedService | undefined;

  beforeAll(async () => {
    pg = await startCluster('survive');
    await pg.sql('create database bms');
    f = await startFaultedService(pg.url('bms'));
  });

  afterAll(async () => {
    await f?.stop();
    await pg?.remove();
  });

  const sql = (text: string, params: unknown[]) => pg.sql(text, params, 'bms');

  /** The service's own sessions on its database. */
  const terminateAll = async () => {
    const [{ n }] = await pg.sql<{ n: number }>(
      `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
         where datname = 'bms' and pid <> pg_backend_pid()`,
    );
    return n;
  };

  /**
   * Resolves once the listening session is back (it reconnects after a back-off, so a round's
   * writes can resume before it does) and the request pool and the event worker have sessions.
   */
  const sessionsBack = async () => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const [{ n, listening }] = await pg.sql<{ n: number; listening: boolean }>(
        `select count(*)::int as n, bool_or(query like 'LISTEN %') as listening from pg_stat_activity
           where datname = 'bms' and pid <> pg_backend_pid()`,
      );
      if ((n >= 3 && listening) || Date.now() > deadline) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('stays up and loses nothing when every backend of its database is terminated, several times', async () => {
    const load = conceptLoad(f!, 'Terminated');
    const terminated: number[] = [];
    const resumedMs: number[] = [];
    try {
      await load.more(20);
      for (let round = 0; round < 4; round++) {
        await sessionsBack();
        terminated.push(await terminateAll());
        resumedMs.push(await load.more(10, 20_000));
      }
    } finally {
      await load.stop();
    }
    await expectSurvived(f!, 'Terminated', load.report, sql);
    // Each round found the request pool's, the event worker's and the listening connections.
    expect(Math.min(...terminated)).toBeGreaterThanOrEqual(3);
    expect(Math.max(...resumedMs)).toBeLessThan(10_000);
  });

  it('stays up and loses nothing through a restart of the PostgreSQL server', async () => {
    const load = conceptLoad(f!, 'Restarted');
    let resumedMs: number;
    try {
      await load.more(20);
      await pg.stop('fast');
      // Down for a moment, under load: the writers are refused meanwhile.
      await new Promise((r) => setTimeout(r, 1500));
      await pg.start();
      resumedMs = await load.more(20, 30_000);
    } finally {
      await load.stop();
    }
    await expectSurvived(f!, 'Restarted', load.report, sql);
    expect(load.report.statuses[503]).toBeGreaterThan(0);
    expect(resumedMs).toBeLessThan(15_000);
  });
});
