import { runCoverageJobOnce } from '../../src/domain/configurator/coverage-worker';
import { createLogger } from '../../src/logger';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { createType } from '../configurator/fixtures';

/** A change a job makes (the coverage worker) has its history like a request's (docs/history.md). */
describe("history of the service's own jobs", () => {
  let server: TestServer;
  let a: TestTenant;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('History jobs');
  }, 60_000);
  afterAll(() => server.close());

  it('the coverage worker’s changes are kept with their values, as the worker’s, without a request', async () => {
    const type = await createType(a.client, server.app.schema);
    const queued = await a.client.post(`/type-product-coverages/calculate/${type.id}`);
    expect(queued.status).toBe(200);
    const [job] = queued.body;
    // The worker's database may hold jobs other test files left due: they are run first.
    let outcome: Awaited<ReturnType<typeof runCoverageJobOnce>>;
    for (let turns = 0; turns < 50; turns++) {
      outcome = await runCoverageJobOnce(server.orm, createLogger('silent'), {
        workerName: 'history-worker',
      });
      if (!outcome || outcome.jobId === job.id) break;
    }
    expect(outcome!).toMatchObject({ jobId: job.id, status: 'DONE' });

    const log = await a.client.get(`/audit-log?recordType=CoverageJob&recordId=${job.id}`);
    expect(log.status).toBe(200);
    const entries = [...log.body.content].reverse();
    expect(entries[0]).toMatchObject({ type: 'CREATE', actor: a.adminEmail, userId: a.adminId });
    expect(entries[0].requestId).toEqual(expect.any(String));
    const byWorker = entries.filter((e: any) => e.actor === 'coverage-worker');
    expect(byWorker.length).toBeGreaterThanOrEqual(2);
    for (const e of byWorker) expect(e).toMatchObject({ userId: null, apiKeyId: null, requestId: null });
    const statuses = byWorker
      .filter((e: any) => e.type === 'STATUS_CHANGE')
      .map((e: any) => e.changes.find((c: any) => c.field === 'status'));
    expect(statuses).toEqual([
      { field: 'status', old: 'PENDING', new: 'RUNNING' },
      { field: 'status', old: 'RUNNING', new: 'DONE' },
    ]);
    const running = byWorker.find((e: any) => e.type === 'UPDATE');
    expect(running.changes).toEqual(
      expect.arrayContaining([{ field: 'workerName', old: null, new: 'history-worker' }]),
    );
  });
});
