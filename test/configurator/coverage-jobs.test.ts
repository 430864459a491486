import { calculateCoverage } from '../../src/domain/configurator/coverage-calculation';
import { asWorker } from '../../src/domain/configurator/coverage-queue';
import {
  runCoverageJobOnce,
  startCoverageWorker,
  type CoverageWorkerOptions,
} from '../../src/domain/configurator/coverage-worker';
import { createLogger } from '../../src/logger';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody } from '../support/http';
import { storedFile } from '../support/files';
import { ISO, UNKNOWN_ID, UUID, createType, fieldsOf, sampleType } from './fixtures';

const logger = createLogger('silent');

const JOB_FIELDS = [
  'id',
  'tenantId',
  'name',
  'description',
  'message',
  'currentAgentId',
  'workerName',
  'typeId',
  'status',
  'priority',
  'progress',
  'retries',
  'runAfter',
  'started',
  'completed',
  'assets',
  'events',
  'created',
  'createdBy',
  'updated',
  'updatedBy',
];

const VARIANTS = ['T1-Flat-BRICK', 'T1-Flat-WOOD', 'T1-Saddle'];

describe('coverage calculation: the job queue and the worker', () => {
  let server: TestServer;
  let a: TestTenant;
  let jobFields: string;

  const job = async (t: TestTenant, id: string) => {
    const res = await t.client.graphql(`query($id: ID!) { coverageJob(id: $id) ${jobFields} }`, { id });
    expect(res.body.errors).toBeUndefined();
    return res.body.data.coverageJob;
  };
  const typeOf = async (t: TestTenant, id: string) => {
    const res = await t.client.graphql(
      `query($id: ID!) { configuratorType(id: $id) ${fieldsOf(server.app.schema, 'ConfiguratorType')} }`,
      { id },
    );
    return res.body.data.configuratorType;
  };
  /** Runs due jobs until none is left. */
  const drain = async (options: CoverageWorkerOptions = {}) => {
    const outcomes = [];
    for (let outcome = await runCoverageJobOnce(server.orm, logger, options); outcome;) {
      outcomes.push(outcome);
      outcome = await runCoverageJobOnce(server.orm, logger, options);
    }
    return outcomes;
  };

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Jobs');
    jobFields = fieldsOf(server.app.schema, 'CoverageJob').replace(/}$/, ' staticModelId }');
  });
  afterAll(() => server.close());

  it('POST /calculate/{typeId} queues one PENDING job per static model and answers the jobs', async () => {
    const input = sampleType();
    (input.staticModels as any[]).push({ id: 'sm-second', modelNamePrefix: 'S-', type: 'VARIANT' });
    const type = await createType(a.client, server.app.schema, input);
    const res = await a.client.post(`/type-product-coverages/calculate/${type.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    for (const j of res.body) {
      expect(Object.keys(j).sort()).toEqual([...JOB_FIELDS].sort());
      expect(j).toMatchObject({
        id: expect.stringMatching(UUID),
        tenantId: a.tenantId,
        typeId: type.id,
        status: 'PENDING',
        priority: 'LOW',
        progress: 0,
        retries: 0,
        runAfter: expect.stringMatching(ISO),
        started: null,
        completed: null,
        message: null,
        currentAgentId: null,
        workerName: null,
        assets: [],
        createdBy: a.adminEmail,
        events: [expect.objectContaining({ type: 'CREATE', authorId: a.adminId })],
      });
    }
    expect(res.body[0].name).toContain('T1-');
    expect(res.body[1].name).toContain('S-');

    // Asking again while the jobs wait gives the same jobs back, raised to a higher priority.
    const again = await a.client.post(`/type-product-coverages/calculate/${type.id}?priority=HIGH`);
    expect(again.body.map((j: any) => j.id)).toEqual(res.body.map((j: any) => j.id));
    expect(again.body.map((j: any) => j.priority)).toEqual(['HIGH', 'HIGH']);
    expectErrorBody(await a.client.post(`/type-product-coverages/calculate/${type.id}?priority=SOON`), 400);
    await drain();
  });

  it('the worker runs a job PENDING -> RUNNING -> DONE and creates the coverages of every variant', async () => {
    const type = await createType(a.client, server.app.schema);
    const [queued] = (await a.client.post(`/type-product-coverages/calculate/${type.id}`)).body;

    const outcomes = await drain({ workerName: 'test-worker' });
    expect(outcomes).toEqual([{ tenantId: a.tenantId, jobId: queued.id, status: 'DONE' }]);

    const done = await job(a, queued.id);
    expect(done).toMatchObject({
      status: 'DONE',
      progress: 100,
      retries: 0,
      workerName: 'test-worker',
      currentAgentId: null,
      staticModelId: 'sm-main',
      started: expect.stringMatching(ISO),
      completed: expect.stringMatching(ISO),
      message: expect.stringContaining('3 variants'),
      updatedBy: 'coverage-worker',
    });
    expect(done.events.filter((e: any) => e.type === 'STATUS_CHANGE').map((e: any) => e.description)).toEqual(
      ['PENDING -> RUNNING', 'RUNNING -> DONE'],
    );

    const rows = (await a.client.post(`/type-product-coverages/find-by-names/${type.id}`, VARIANTS)).body;
    expect(rows.map((r: any) => [r.productName, r.variantId])).toEqual([
      ['T1-Flat-BRICK', 'flat/Facade=BRICK'],
      ['T1-Flat-WOOD', 'flat/Facade=WOOD'],
      ['T1-Saddle', 'saddle'],
    ]);
    expect(rows[0]).toMatchObject({
      tenantId: a.tenantId,
      typeId: type.id,
      staticModelTreeId: 'sm-main',
      modelType: 'CONCEPT',
      complete: false,
      linkedProductId: null,
      createdBy: 'coverage-worker',
      parameters: [
        { name: 'height', type: 'number', value: 9 },
        { name: 'Facade', type: 'option', value: 'BRICK' },
      ],
      events: [expect.objectContaining({ type: 'CREATE', authorId: null })],
    });

    const after = await typeOf(a, type.id);
    expect(after.staticModels[0].stats).toEqual({
      totalModels: 3,
      modelsInDb: 0,
      modelsComplete: 0,
      glbInDb: 0,
      rvtInDb: 0,
      totalFileSize: 0,
      lastSynced: expect.stringMatching(ISO),
    });
    expect(after.totalStaticModels).toBe(3);
    expect(after.events.map((e: any) => e.type)).toEqual(['CREATE', 'UPDATE']);
  });

  it('recalculating updates rows in place, keeps their assets, and counts them in the stats', async () => {
    const type = await createType(a.client, server.app.schema);
    await a.client.post(`/type-product-coverages/calculate/${type.id}`);
    await drain();
    const [brick] = (
      await a.client.post(`/type-product-coverages/find-by-names/${type.id}`, ['T1-Flat-BRICK'])
    ).body;
    const assets = [
      (
        await storedFile(server.baseUrl, a, {
          name: 'm.glb',
          type: 'application/octet-stream',
          content: Buffer.alloc(700),
        })
      ).file,
      (
        await storedFile(server.baseUrl, a, {
          name: 'm.rvt',
          type: 'application/octet-stream',
          content: Buffer.alloc(300),
        })
      ).file,
    ];
    const upd = await a.client.graphql(
      `mutation($id: ID!, $input: UpdateTypeProductCoverageInput!) { updateTypeProductCoverage(id: $id, input: $input) { complete } }`,
      { id: brick.id, input: { assets } },
    );
    expect(upd.body.data.updateTypeProductCoverage.complete).toBe(true);

    // Rename one variant; static models sent without stats keep the stored stats.
    const models = type.staticModels.map(({ stats: _stats, ...m }: any) => ({
      ...m,
      nameOverrides: { saddle: 'Saddle special' },
    }));
    const edit = await a.client.graphql(
      `mutation($id: ID!, $input: UpdateConfiguratorTypeInput!) { updateConfiguratorType(id: $id, input: $input) { totalStaticModels staticModels { stats { totalModels } } } }`,
      { id: type.id, input: { staticModels: models } },
    );
    expect(edit.body.data.updateConfiguratorType).toEqual({
      totalStaticModels: 3,
      staticModels: [{ stats: { totalModels: 3 } }],
    });

    await a.client.post(`/type-product-coverages/calculate/${type.id}`);
    expect((await drain()).map((o) => o.status)).toEqual(['DONE']);

    const all = (
      await a.client.post('/type-product-coverages/dynamic-search', { filters: { typeId: type.id } })
    ).body;
    expect(all.totalElements).toBe(3);
    const names = all.content.map((c: any) => c.productName).sort();
    expect(names).toEqual(['Saddle special', 'T1-Flat-BRICK', 'T1-Flat-WOOD']);
    const kept = all.content.find((c: any) => c.id === brick.id);
    expect(kept).toMatchObject({ complete: true, totalFileSize: 1000 });
    expect(kept.assets).toHaveLength(2);

    const after = await typeOf(a, type.id);
    expect(after.staticModels[0].stats).toMatchObject({
      totalModels: 3,
      modelsInDb: 1,
      modelsComplete: 1,
      glbInDb: 1,
      rvtInDb: 1,
      totalFileSize: 1000,
    });
    expect(after).toMatchObject({
      totalStaticModels: 3,
      totalStaticModelsComplete: 1,
      totalStaticModelsFileSize: 1000,
      totalStaticModelsGlbInDb: 1,
      totalStaticModelsInDb: 1,
      totalStaticModelsRvtInDb: 1,
    });
  });

  it('a failing job is retried after a backoff, then ends FAILED with its message', async () => {
    const input = sampleType('Broken');
    (input.staticModels as any[])[0].models.branches[0].result.exhaustiveOptions = ['Colour'];
    const type = await createType(a.client, server.app.schema, input);
    const [queued] = (await a.client.post(`/type-product-coverages/calculate/${type.id}`)).body;
    const options = { maxRetries: 1, backoffMs: 60_000 };

    const before = Date.now();
    expect(await drain(options)).toEqual([{ tenantId: a.tenantId, jobId: queued.id, status: 'PENDING' }]);
    const retrying = await job(a, queued.id);
    expect(retrying).toMatchObject({
      status: 'PENDING',
      retries: 1,
      currentAgentId: null,
      completed: null,
      message: expect.stringContaining('"Colour"'),
    });
    expect(new Date(retrying.runAfter).getTime()).toBeGreaterThanOrEqual(before + 60_000);
    // Not due yet: the worker leaves it alone.
    expect(await runCoverageJobOnce(server.orm, logger, options)).toBeNull();

    // Made due by hand (GraphQL update of a pending job), it fails for the last time.
    const due = await a.client.graphql(
      `mutation($id: ID!, $at: DateTimeISO!) { updateCoverageJob(id: $id, input: {runAfter: $at}) { runAfter } }`,
      { id: queued.id, at: new Date(Date.now() - 1000).toISOString() },
    );
    expect(due.body.errors).toBeUndefined();
    expect(await drain(options)).toEqual([{ tenantId: a.tenantId, jobId: queued.id, status: 'FAILED' }]);
    const failed = await job(a, queued.id);
    expect(failed).toMatchObject({
      status: 'FAILED',
      retries: 1,
      completed: expect.stringMatching(ISO),
      message: expect.stringContaining('is not an option of type Broken'),
    });
    expect(
      failed.events.filter((e: any) => e.type === 'STATUS_CHANGE').map((e: any) => e.description),
    ).toEqual(['PENDING -> RUNNING', 'RUNNING -> PENDING', 'PENDING -> RUNNING', 'RUNNING -> FAILED']);
    const noRows = (
      await a.client.post('/type-product-coverages/dynamic-search', { filters: { typeId: type.id } })
    ).body;
    expect(noRows.totalElements).toBe(0);

    // A finished job cannot be rescheduled.
    const late = await a.client.graphql(
      `mutation($id: ID!) { updateCoverageJob(id: $id, input: {priority: HIGH}) { id } }`,
      { id: queued.id },
    );
    expect(late.body.errors?.[0].extensions?.status).toBe(409);
  });

  it('a job whose type is fixed between retries succeeds on the retry', async () => {
    const input = sampleType('Fixable');
    (input.staticModels as any[])[0].models.branches[0].result.exhaustiveOptions = ['Colour'];
    const type = await createType(a.client, server.app.schema, input);
    const [queued] = (await a.client.post(`/type-product-coverages/calculate/${type.id}`)).body;
    const options = { maxRetries: 3, backoffMs: 0 };
    expect((await runCoverageJobOnce(server.orm, logger, options))?.status).toBe('PENDING');
    const fixed = await a.client.graphql(
      `mutation($id: ID!, $input: UpdateConfiguratorTypeInput!) { updateConfiguratorType(id: $id, input: $input) { id } }`,
      { id: type.id, input: { staticModels: sampleType().staticModels } },
    );
    expect(fixed.body.errors).toBeUndefined();
    expect(await drain(options)).toEqual([{ tenantId: a.tenantId, jobId: queued.id, status: 'DONE' }]);
    expect((await job(a, queued.id)).retries).toBe(1);
  });

  it('a deleted type fails its job; a type without static models queues nothing; unknown types are 404', async () => {
    const type = await createType(a.client, server.app.schema, sampleType('Short-lived'));
    const [queued] = (await a.client.post(`/type-product-coverages/calculate/${type.id}`)).body;
    await a.client.graphql(`mutation($id: ID!) { deleteConfiguratorType(id: $id) }`, { id: type.id });
    expect(await drain({ maxRetries: 0 })).toEqual([
      { tenantId: a.tenantId, jobId: queued.id, status: 'FAILED' },
    ]);
    expect((await job(a, queued.id)).message).toContain('no longer exists');

    const bare = await createType(a.client, server.app.schema, { name: 'No models' });
    const none = await a.client.post(`/type-product-coverages/calculate/${bare.id}`);
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);
    expectErrorBody(await a.client.post(`/type-product-coverages/calculate/${UNKNOWN_ID}`), 404);
    expectErrorBody(await a.client.post(`/type-product-coverages/calculate/not-an-id`), 404);
  });

  it('concurrent workers never claim the same job, and both static models keep their stats', async () => {
    const input = sampleType('Parallel');
    const second = JSON.parse(JSON.stringify((input.staticModels as any[])[0]));
    (input.staticModels as any[]).push({ ...second, id: 'sm-other', modelNamePrefix: 'P2-' });
    const type = await createType(a.client, server.app.schema, input);
    const queued = (await a.client.post(`/type-product-coverages/calculate/${type.id}`)).body;
    expect(queued).toHaveLength(2);
    const outcomes = await Promise.all([1, 2, 3].map(() => runCoverageJobOnce(server.orm, logger)));
    const ran = outcomes.filter((o) => o !== null);
    expect(ran.map((o) => o!.jobId).sort()).toEqual(queued.map((j: any) => j.id).sort());
    expect(ran.map((o) => o!.status)).toEqual(['DONE', 'DONE']);
    const after = await typeOf(a, type.id);
    expect(after.staticModels.map((m: any) => m.stats?.totalModels)).toEqual([3, 3]);
    expect(after.totalStaticModels).toBe(6);
  });

  it('writes large models in chunks and reports progress after each', async () => {
    const codes = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({ code: `${prefix}${String(i).padStart(2, '0')}` }));
    const type = await createType(a.client, server.app.schema, {
      name: 'Big',
      options: [
        { name: 'Size', codes: codes('S', 25) },
        { name: 'Colour', codes: codes('C', 10) },
      ],
      staticModels: [
        {
          id: 'big',
          models: {
            branches: [],
            decisionTree: {
              result: { id: 'all', name: 'Big', isExhaustive: true, exhaustiveOptions: ['Size', 'Colour'] },
            },
          },
        },
      ],
    });
    const progress: number[] = [];
    const summary = await calculateCoverage(
      (work) => asWorker(server.orm, a.tenantId, work),
      type.id,
      'big',
      async (p) => {
        progress.push(p);
      },
    );
    expect(progress).toEqual([72, 90]);
    expect(summary).toContain('250 variants');
    const page = await a.client.post('/type-product-coverages/dynamic-search', {
      filters: { typeId: type.id },
      sort: [{ field: 'productName', ascending: true }],
      size: 1000,
    });
    expect(page.body.totalElements).toBe(250);
    expect(page.body.content[0].productName).toBe('Big-S00-C00');
    expect((await typeOf(a, type.id)).totalStaticModels).toBe(250);
  });

  it('claims the most urgent due job first, then by runAfter', async () => {
    const slow = await createType(a.client, server.app.schema, sampleType('Low one'));
    const fast = await createType(a.client, server.app.schema, sampleType('Urgent one'));
    const [low] = (await a.client.post(`/type-product-coverages/calculate/${slow.id}`)).body;
    const [urgent] = (await a.client.post(`/type-product-coverages/calculate/${fast.id}?priority=URGENT`))
      .body;
    expect((await drain()).map((o) => o.jobId)).toEqual([urgent.id, low.id]);
  });

  it('takes over a RUNNING job whose worker stopped reporting, as a retry', async () => {
    const type = await createType(a.client, server.app.schema, sampleType('Orphaned'));
    const [queued] = (await a.client.post(`/type-product-coverages/calculate/${type.id}`)).body;
    await server.orm.em
      .getConnection()
      .execute(
        `update coverage_job set status = 'RUNNING', current_agent_id = 'dead', worker_name = 'dead-worker', updated = now() - interval '1 hour' where tenant_id = ? and id = ?`,
        [a.tenantId, queued.id],
      );
    expect(await drain({ leaseMs: 60_000 })).toEqual([
      { tenantId: a.tenantId, jobId: queued.id, status: 'DONE' },
    ]);
    const done = await job(a, queued.id);
    expect(done).toMatchObject({ status: 'DONE', retries: 1, currentAgentId: null });
    expect(done.workerName).not.toBe('dead-worker');
  });

  it('startCoverageWorker polls the queue until stopped', async () => {
    const worker = startCoverageWorker(server.orm, logger, { pollIntervalMs: 25, workerName: 'loop-worker' });
    try {
      const type = await createType(a.client, server.app.schema, sampleType('Background'));
      const [queued] = (await a.client.post(`/type-product-coverages/calculate/${type.id}`)).body;
      let current = await job(a, queued.id);
      for (let i = 0; i < 200 && current.status !== 'DONE'; i++) {
        await new Promise((r) => setTimeout(r, 25));
        current = await job(a, queued.id);
      }
      expect(current).toMatchObject({ status: 'DONE', workerName: 'loop-worker' });
    } finally {
      await worker.stop();
    }
    const type = await createType(a.client, server.app.schema, sampleType('After stop'));
    const [queued] = (await a.client.post(`/type-product-coverages/calculate/${type.id}`)).body;
    await new Promise((r) => setTimeout(r, 100));
    expect((await job(a, queued.id)).status).toBe('PENDING');
    await drain();
  });

  it('GraphQL: jobs by id and by search, behind the COVERAGES permissions', async () => {
    const type = await createType(a.client, server.app.schema, sampleType('Searched'));
    const [queued] = (await a.client.post(`/type-product-coverages/calculate/${type.id}`)).body;
    const reader = await a.userWith(['READ_COVERAGES']);
    const res = await reader.client.graphql(
      `query($input: SearchInput) { searchCoverageJobs(input: $input) { totalElements content { id status } } }`,
      { input: { filters: [{ field: 'typeId', op: 'eq', value: type.id }] } },
    );
    expect(res.body.data.searchCoverageJobs).toEqual({
      totalElements: 1,
      content: [{ id: queued.id, status: 'PENDING' }],
    });
    expectErrorBody(await reader.client.post(`/type-product-coverages/calculate/${type.id}`), 403);
    const typesOnly = await a.userWith(['READ_TYPES', 'CREATE_TYPES']);
    const denied = await typesOnly.client.graphql(`query($id: ID!) { coverageJob(id: $id) { id } }`, {
      id: queued.id,
    });
    expect(denied.body.errors?.[0].extensions?.status).toBe(403);
    expectErrorBody(await typesOnly.client.post(`/type-product-coverages/calculate/${type.id}`), 403);
    const creator = await a.userWith(['CREATE_COVERAGES']);
    expect((await creator.client.post(`/type-product-coverages/calculate/${type.id}`)).status).toBe(200);
    await drain();
  });

  it('works for every tenant, each job within its own tenant; tenants never see each other', async () => {
    const b = await server.tenant('Second');
    const typeA = await createType(a.client, server.app.schema, sampleType('Tenant A type'));
    const typeB = await createType(b.client, server.app.schema, sampleType('Tenant B type'));
    const [jobA] = (await a.client.post(`/type-product-coverages/calculate/${typeA.id}`)).body;
    const [jobB] = (await b.client.post(`/type-product-coverages/calculate/${typeB.id}`)).body;

    expectErrorBody(await b.client.post(`/type-product-coverages/calculate/${typeA.id}`), 404);
    const peek = await b.client.graphql(
      `query($id: ID!) { coverageJob(id: $id) { id } searchCoverageJobs { totalElements } exportCoverageJobsCsv }`,
      { id: jobA.id },
    );
    expect(peek.body.data.coverageJob).toBeNull();
    expect(peek.body.data.searchCoverageJobs.totalElements).toBe(1);
    expect(peek.body.data.exportCoverageJobsCsv).not.toContain(jobA.id);
    const del = await b.client.graphql(`mutation($ids: [ID!]!) { deleteCoverageJobs(ids: $ids) }`, {
      ids: [jobA.id],
    });
    expect(del.body.data.deleteCoverageJobs).toBe(0);

    const outcomes = await drain();
    expect(outcomes).toEqual(
      expect.arrayContaining([
        { tenantId: a.tenantId, jobId: jobA.id, status: 'DONE' },
        { tenantId: b.tenantId, jobId: jobB.id, status: 'DONE' },
      ]),
    );
    const rowsA = (await a.client.post(`/type-product-coverages/find-by-names/${typeA.id}`, VARIANTS)).body;
    const rowsB = (await b.client.post(`/type-product-coverages/find-by-names/${typeB.id}`, VARIANTS)).body;
    expect(rowsA.map((r: any) => r.tenantId)).toEqual([a.tenantId, a.tenantId, a.tenantId]);
    expect(rowsB.map((r: any) => r.tenantId)).toEqual([b.tenantId, b.tenantId, b.tenantId]);
    const leaked = (
      await b.client.get(`/type-product-coverages/find?ids=${rowsA.map((r: any) => r.id).join(',')}`)
    ).body;
    expect(leaked).toEqual([]);
    expect((await typeOf(b, typeB.id)).totalStaticModels).toBe(3);
    expect((await typeOf(a, typeA.id)).totalStaticModels).toBe(3);
  });
});
