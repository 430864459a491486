import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AbstractSqlConnection, Knex } from '@mikro-orm/postgresql';
import { createLogger } from '../../src/logger';
import { eventSettings, type EventSettings } from '../../src/events/settings';
import { startEventWorker, type EventWorker } from '../../src/events/worker';
import { runNextExport } from '../../src/jobs/tenant-exports';
import { fileSettings } from '../../src/files/settings';
import { tenantTables } from '../../src/services/tenant-table-repository';
import { requestDeletion } from '../../src/services/tenant-lifecycle';
import { kernelJobs } from '../../src/jobs/kernel-jobs';
import { JobScheduler } from '../../src/jobs/scheduler';
import { workerDatabaseUrl } from '../support/database';
import { childEnv, cliCommands, randomSecret } from '../support/process';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { fillTenant } from '../support/tenant-fixture';
import { startReceiver, waitFor } from '../events/receiver';

/**
 * `bms tenant:delete` as an operator runs it: refused without the tenant's name repeated; then the
 * tenant is disabled at once (its users refused, its webhooks no longer sent) and can be brought
 * back within its grace period with nothing lost; once the period is over, `bms tenant:purge`
 * leaves no row of it in any tenant table and none of its stored files, and no other tenant's.
 */
jest.setTimeout(300_000);
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';

const settings: EventSettings = {
  ...eventSettings({}),
  allowPrivateTargets: true,
  timeoutMs: 2000,
  retryBaseMs: 100,
  retryMaxMs: 200,
  // A refused delivery keeps being retried, however slowly the CLI runs on a busy machine.
  maxAttempts: 100_000,
  circuitFailures: 100_000,
  disableAfterMs: 3600_000,
  leaseMs: 1000,
  pollIntervalMs: 50,
};

let server: TestServer;
let worker: EventWorker;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let filesDir: string;
let env: NodeJS.ProcessEnv;
let answer = 500;

const { ok, fails } = cliCommands(() => env);
/** Runs the statements in a transaction: the embedded database's socket keeps those together. */
const sql = <T>(work: (trx: Knex.Transaction) => Promise<T>) =>
  ((server.orm.em.getConnection() as AbstractSqlConnection).getKnex() as Knex).transaction(work);

/** Rows of `tenantId` in every tenant table, by table (empty tables left out). */
async function rowCounts(tenantId: string): Promise<Record<string, number>> {
  return sql(async (trx) => {
    const out: Record<string, number> = {};
    for (const table of await tenantTables(trx)) {
      const { rows } = (await trx.raw(`select count(*)::int as n from "${table.name}" where tenant_id = ?`, [
        tenantId,
      ])) as { rows: { n: number }[] };
      if (rows[0].n > 0) out[table.name] = rows[0].n;
    }
    return out;
  });
}

const createLead = async (tenant: TestTenant, lastName: string) =>
  (
    await tenant.client.graphql('mutation($i: LeadInput!) { createLead(input: $i) { id } }', {
      i: { lastName },
    })
  ).body.errors;

const filesOf = async (tenantId: string) =>
  (await fs.readdir(path.join(filesDir, tenantId)).catch(() => [] as string[])).length;

beforeAll(async () => {
  filesDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bms-deletion-files-'));
  server = await startServer({ files: fileSettings({ FILES_DIR: filesDir }, filesDir) });
  receiver = await startReceiver(() => answer);
  worker = startEventWorker(server.orm, createLogger('silent'), settings);
  env = childEnv({
    DATABASE_URL: await workerDatabaseUrl(),
    JWT_SECRET: randomSecret(),
    FILES_DIR: filesDir,
  });
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await server?.close();
  await fs.rm(filesDir, { recursive: true, force: true });
});

describe('tenant deletion', () => {
  let doomed: TestTenant;
  let bystander: TestTenant;
  let doomedName: string;

  beforeAll(async () => {
    doomed = await server.tenant('Doomed');
    bystander = await server.tenant('Bystander');
    await fillTenant(server, doomed, { webhookUrl: `${receiver.url}/doomed` });
    await fillTenant(server, bystander, { webhookUrl: `${receiver.url}/bystander` });
    doomedName = (await sql((trx) => trx.raw('select name from tenant where id = ?', [doomed.tenantId])))
      .rows[0].name;
  });

  it('is refused without the confirmation, or with another name', async () => {
    expect(await fails('tenant:delete', '--tenant', doomed.tenantId)).toEqual({
      code: 2,
      line: expect.stringContaining(
        `--confirm is required: repeat the tenant's exact name ("${doomedName}")`,
      ),
    });
    expect(await fails('tenant:delete', '--tenant', doomed.tenantId, '--confirm', 'Doomed')).toEqual({
      code: 1,
      line: expect.stringMatching(/is not the tenant's exact name .*nothing was deleted/),
    });
    expect(
      await fails('tenant:delete', '--tenant', doomed.tenantId, '--confirm', doomedName, '--grace', 'soon'),
    ).toEqual({
      code: 2,
      line: expect.stringMatching(/--grace must look like 30d/),
    });
    expect((await doomed.client.get('/webhooks')).status).toBe(200);
  });

  it('disables the tenant at once: its users are refused and its webhooks stop; brought back, they resume', async () => {
    // A delivery the receiver keeps refusing stays pending, retried every few hundred milliseconds.
    expect(await createLead(doomed, 'Pending')).toBeUndefined();
    await waitFor(() => receiver.at('/doomed').length >= 2);

    const deleted = await ok('tenant:delete', '--tenant', doomed.tenantId, '--confirm', doomedName);
    expect(deleted).toEqual({
      tenantId: doomed.tenantId,
      name: doomedName,
      active: false,
      deleteAfter: expect.any(String),
    });
    const days = (Date.parse(deleted.deleteAfter) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    expect((await doomed.client.get('/webhooks')).status).toBe(401);

    // A claim that was already in flight may still land; after it, none.
    await new Promise((r) => setTimeout(r, 1500));
    const attempts = receiver.at('/doomed').length;
    answer = 200;
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.at('/doomed').length).toBe(attempts);
    // The bystander's webhooks go on.
    expect(await createLead(bystander, 'Elsewhere')).toBeUndefined();
    await waitFor(() => receiver.at('/bystander').length > 0);

    // Purging before the grace period ends removes nothing.
    expect(await ok('tenant:purge')).toEqual([]);

    expect(await ok('tenant:undelete', '--tenant', doomedName)).toEqual({
      tenantId: doomed.tenantId,
      name: doomedName,
      active: true,
      deleteAfter: null,
    });
    expect((await doomed.client.get('/webhooks')).status).toBe(200);
    await waitFor(() => receiver.at('/doomed').length > attempts);
    expect(await fails('tenant:undelete', '--tenant', doomed.tenantId)).toEqual({
      code: 1,
      line: expect.stringMatching(/is not waiting for its deletion/),
    });
  });

  it('once the grace period is over, purge removes every row and stored file of the tenant, and nothing of another', async () => {
    const bystanderRows = await rowCounts(bystander.tenantId);
    const bystanderFiles = await filesOf(bystander.tenantId);
    expect(Object.keys(await rowCounts(doomed.tenantId)).length).toBeGreaterThan(25);
    expect(await filesOf(doomed.tenantId)).toBeGreaterThan(0);
    // An export's archive is kept in the same store, and goes with the tenant too.
    const files = await filesOf(doomed.tenantId);
    const exported = (await doomed.client.post('/tenant-exports')).body.id as string;
    while (await runNextExport(server.orm, server.app.files.backend, path.join(filesDir, '.exports')));
    expect((await doomed.client.get(`/tenant-exports/${exported}`)).body.status).toBe('DONE');
    expect(await filesOf(doomed.tenantId)).toBe(files + 1);

    await ok('tenant:delete', '--tenant', doomed.tenantId, '--confirm', doomedName, '--grace', '0');
    const purged = await ok('tenant:purge');
    expect(purged).toEqual([
      { tenantId: doomed.tenantId, rows: expect.any(Number), files: expect.any(Number) },
    ]);
    expect(purged[0].files).toBeGreaterThan(0);

    expect(await rowCounts(doomed.tenantId)).toEqual({});
    const left = await sql((trx) =>
      trx.raw(
        `select (select count(*) from tenant where id = ?)::int + (select count(*) from caller_version where id = ?)::int as n`,
        [doomed.tenantId, doomed.tenantId],
      ),
    );
    expect(left.rows[0].n).toBe(0);
    expect(await filesOf(doomed.tenantId)).toBe(0);
    expect(await rowCounts(bystander.tenantId)).toEqual(bystanderRows);
    expect(await filesOf(bystander.tenantId)).toBe(bystanderFiles);
    expect(await fails('tenant:delete', '--tenant', doomed.tenantId, '--confirm', doomedName)).toEqual({
      code: 1,
      line: expect.stringMatching(/no tenant/i),
    });
  });

  it("the service's purge job removes a deleted tenant once its grace period is over, not before", async () => {
    const late = await server.tenant('Late');
    expect(await createLead(late, 'Soon gone')).toBeUndefined();
    await requestDeletion(server.orm, late.tenantId, 1500);
    // The service's job, run every second rather than hourly, by a scheduler waking every 100 ms.
    const [job] = kernelJobs({ orm: server.orm, files: server.app.files, digestIntervalMs: 60_000 }).filter(
      (j) => j.name === 'tenants.purge',
    );
    const purge = new JobScheduler(
      server.orm,
      [{ ...job, schedule: { every: 1000 } }],
      createLogger('silent'),
      {
        tickMs: 100,
      },
    ).start();
    try {
      await new Promise((r) => setTimeout(r, 500));
      expect(await rowCounts(late.tenantId)).toEqual(expect.objectContaining({ lead: 1 }));
      await waitFor(async () => Object.keys(await rowCounts(late.tenantId)).length === 0);
      const gone = await sql((trx) =>
        trx.raw('select count(*)::int as n from tenant where id = ?', [late.tenantId]),
      );
      expect(gone.rows[0].n).toBe(0);
    } finally {
      await purge.stop();
    }
  });
});
