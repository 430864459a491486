import { conceptLoad, startFaultedService, expectSurvived, type FaultedService } from '../support/fault-load';
import { describeWithClusters, startCluster, startStandby, type PgCluster } from '../support/pg-cluster';

/**
 * Failover: a primary with a synchronous standby (streaming replication; the primary's commits
 * wait for the standby's flush), a service process given both hosts in one DATABASE_URL with
 * `target_session_attrs=read-write`, under write load with a webhook endpoint. The primary is
 * stopped at once (a crash: `pg_ctl stop -m immediate`) and the standby promoted (`pg_ctl
 * promote`): writes resume within 10 s of the primary's stop, the promoted server holds every
 * acknowledged write, and every stored write's webhook arrives exactly once.
 */
jest.setTimeout(240_000);

describeWithClusters('the failover test')('failover to a synchronous standby', () => {
  let primary: PgCluster;
  let standby: PgCluster;
  let f: FaultedService | undefined;

  beforeAll(async () => {
    primary = await startCluster('primary');
    await primary.sql('create database bms');
    standby = await startStandby(primary, 'standby1');
    const hosts = [primary, standby].map((c) => `127.0.0.1:${c.port}`).join(',');
    f = await startFaultedService(
      `postgresql://postgres@${hosts}/bms?target_session_attrs=read-write`,
      {},
      primary.url('bms'),
    );
  });

  afterAll(async () => {
    await f?.stop();
    await primary?.remove();
    await standby?.remove();
  });

  it('refuses to start a session on the standby: every connection of the service is on the primary', async () => {
    const [{ n }] = await standby.sql<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity where datname = 'bms' and backend_type = 'client backend'`,
    );
    expect(n).toBe(0);
    const [{ m }] = await primary.sql<{ m: number }>(
      `select count(*)::int as m from pg_stat_activity where datname = 'bms' and backend_type = 'client backend'`,
    );
    expect(m).toBeGreaterThan(0);
  });

  it('resumes writes within 10 s of the primary stopping, with every acknowledged write and webhook kept', async () => {
    const load = conceptLoad(f!, 'Failover');
    let resumedMs = Infinity;
    let acknowledgedBefore = 0;
    try {
      await load.more(30);
      acknowledgedBefore = load.report.acknowledged.length;
      const stoppedAt = Date.now();
      await primary.stop('immediate');
      await standby.promote();
      await load.more(1, 30_000);
      resumedMs = Date.now() - stoppedAt;
      await load.more(20, 30_000);
    } finally {
      await load.stop();
    }
    await expectSurvived(f!, 'Failover', load.report, (text, params) => standby.sql(text, params, 'bms'));
    expect(acknowledgedBefore).toBeGreaterThanOrEqual(30);
    expect(resumedMs).toBeLessThan(10_000);
    // Written to the promoted server after the failover, as its own.
    const [{ recovery }] = await standby.sql<{ recovery: boolean }>('select pg_is_in_recovery() as recovery');
    expect(recovery).toBe(false);
  });
});
