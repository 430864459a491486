import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../../src/logger';
import { runNextExport, startExportJobs } from '../../src/jobs/tenant-exports';
import { importTenant, type Manifest } from '../../src/services/tenant-bundle';
import { expectErrorBody } from '../support/http';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { fillTenant } from '../support/tenant-fixture';
import { waitFor } from '../events/receiver';

/**
 * The administrator's export over the API: a job the super-admin starts and follows (status and
 * progress) until its bundle is written, which then imports as a new tenant; refused (403) to
 * anyone else, a 404 for an export that is not the tenant's; a bundle that cannot be written ends
 * the job FAILED with the reason.
 */
jest.setTimeout(300_000);
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';

let server: TestServer;
let tenant: TestTenant;
let work: string;

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'bms-export-job-'));
  server = await startServer();
  tenant = await server.tenant('Exported');
  await fillTenant(server, tenant);
});
afterAll(async () => {
  await server?.close();
  await fs.rm(work, { recursive: true, force: true });
});

it('the super-admin starts an export and follows its progress until the bundle is written; it imports', async () => {
  const clerk = await tenant.userWith(['READ_LEADS']);
  expectErrorBody(await clerk.client.post('/tenant-exports'), 403);

  const started = await tenant.client.post('/tenant-exports');
  expect(started.status).toBe(201);
  expect(started.headers.get('location')).toBe(`/api/v1/tenant-exports/${started.body.id}`);
  expect(started.body).toEqual(
    expect.objectContaining({ status: 'PENDING', progress: 0, requestedBy: tenant.adminEmail, bundle: null }),
  );
  const id = started.body.id as string;
  expectErrorBody(await clerk.client.get(`/tenant-exports/${id}`), 403);
  expectErrorBody(await tenant.client.get(`/tenant-exports/${randomUUID()}`), 404);
  const other = await server.tenant('Elsewhere');
  expectErrorBody(await other.client.get(`/tenant-exports/${id}`), 404);

  const dir = path.join(work, 'exports');
  const seen: number[] = [];
  const jobs = startExportJobs(server.orm, server.app.files.backend, dir, createLogger('silent'), 50);
  let done: any;
  try {
    done = await waitFor(async () => {
      const res = await tenant.client.get(`/tenant-exports/${id}`);
      expect(res.status).toBe(200);
      seen.push(res.body.progress);
      return res.body.status !== 'PENDING' && res.body.status !== 'RUNNING' && res.body;
    }, 60_000);
  } finally {
    await jobs.stop();
  }
  expect(done).toEqual(
    expect.objectContaining({
      status: 'DONE',
      progress: 100,
      bundle: path.join(dir, tenant.tenantId, id),
      message: expect.stringMatching(/^\d+ records, \d+ files$/),
      completed: expect.any(String),
    }),
  );
  // Progress only goes forward.
  expect(seen).toEqual([...seen].sort((a, b) => a - b));

  const manifest = JSON.parse(await fs.readFile(path.join(done.bundle, 'manifest.json'), 'utf8')) as Manifest;
  expect(manifest.tenant.id).toBe(tenant.tenantId);
  const imported = await importTenant(server.orm, server.app.files.backend, done.bundle, {
    name: `From the job ${randomUUID().slice(0, 8)}`,
  });
  expect(imported.records).toEqual(
    Object.fromEntries(Object.entries(manifest.records).map(([table, r]) => [table, r.count])),
  );
});

it('an export whose bundle cannot be written ends FAILED with the reason', async () => {
  const started = await tenant.client.post('/tenant-exports');
  expect(started.status).toBe(201);
  const notAFolder = path.join(work, 'a-file');
  await fs.writeFile(notAFolder, 'not a folder');
  // Runs the exports waiting (this one, and any another test left), none with a folder to write to.
  while (await runNextExport(server.orm, server.app.files.backend, notAFolder));
  const res = await tenant.client.get(`/tenant-exports/${started.body.id}`);
  expect(res.body).toEqual(
    expect.objectContaining({
      status: 'FAILED',
      message: expect.stringMatching(/cannot write the bundle/),
      completed: expect.any(String),
    }),
  );
});
