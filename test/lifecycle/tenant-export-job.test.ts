import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { extract as extractTar } from 'tar';
import { createLogger } from '../../src/logger';
import { EXPORT_ATTEMPTS, runNextExport, startExportJobs } from '../../src/jobs/tenant-exports';
import { actAsTenant, knexOf } from '../../src/services/tenant-table-repository';
import { importTenant, type Manifest } from '../../src/services/tenant-bundle';
import { backendWithPut } from '../support/files';
import { expectErrorBody } from '../support/http';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { fillTenant } from '../support/tenant-fixture';
import { waitFor } from '../events/receiver';

/**
 * The administrator's export over the API: a job the super-admin starts and follows (status and
 * progress) until its bundle is written, which then imports as a new tenant; refused (403) to
 * anyone else, a 404 for an export that is not the tenant's; the bundle downloads over HTTP as one
 * archive; a bundle that cannot be written ends the job FAILED with the reason; an export whose
 * process died is taken over once its lease runs out, and given up after its last attempt.
 */
jest.setTimeout(300_000);
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function bundleOf(token: string, id: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.baseUrl}/api/v1/tenant-exports/${id}/bundle`, {
    headers: { authorization: `Bearer ${token}`, ...headers },
  });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Sets columns of an export's row, as a process that died with it would have left them. */
async function leave(tenantId: string, id: string, set: string): Promise<void> {
  await knexOf(server.orm).transaction(async (trx) => {
    await actAsTenant(trx, tenantId);
    await trx.raw(`update tenant_export set ${set} where tenant_id = ? and id = ?`, [tenantId, id]);
  });
}

/** The export's row as the worker sees it: its status and lease. */
async function leaseOf(tenantId: string, id: string): Promise<{ status: string; lease: string | null }> {
  return knexOf(server.orm).transaction(async (trx) => {
    await actAsTenant(trx, tenantId);
    const { rows } = (await trx.raw(
      `select status, lease_until::text as lease from tenant_export where tenant_id = ? and id = ?`,
      [tenantId, id],
    )) as { rows: { status: string; lease: string | null }[] };
    return rows[0];
  });
}

/** What the flush recorded of a record: its history entries and its events. */
async function traceOf(tenantId: string, id: string): Promise<{ history: number; events: number }> {
  return knexOf(server.orm).transaction(async (trx) => {
    await actAsTenant(trx, tenantId);
    const { rows } = (await trx.raw(
      `select (select count(*)::int from record_history where tenant_id = ? and record_id = ?) as history,
              (select count(*)::int from outbox_event where tenant_id = ? and resource_id = ?) as events`,
      [tenantId, id, tenantId, id],
    )) as { rows: { history: number; events: number }[] };
    return rows[0];
  });
}

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

  const dataDir = path.join(work, 'data');
  const seen: number[] = [];
  const jobs = startExportJobs(server.orm, server.app.files.backend, dataDir, createLogger('silent'), 50);
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
      // Relative to the service's DATA_DIR: the machine's own paths are not the tenant's to see.
      bundle: `exports/${tenant.tenantId}/${id}`,
      message: expect.stringMatching(/^\d+ records, \d+ files$/),
      completed: expect.any(String),
    }),
  );
  // Progress only goes forward.
  expect(seen).toEqual([...seen].sort((a, b) => a - b));
  // An export is a job the service runs, not an edited record: no history, no events.
  expect(await traceOf(tenant.tenantId, id)).toEqual({ history: 0, events: 0 });

  expect(JSON.stringify(done)).not.toContain(work);
  // A row an earlier version wrote with the machine's absolute path shows the same relative one.
  await leave(tenant.tenantId, id, `bundle = '${path.join(work, 'data', done.bundle)}'`);
  expect((await tenant.client.get(`/tenant-exports/${id}`)).body.bundle).toBe(done.bundle);
  const bundle = path.join(dataDir, done.bundle);
  const manifest = JSON.parse(await fs.readFile(path.join(bundle, 'manifest.json'), 'utf8')) as Manifest;
  expect(manifest.tenant.id).toBe(tenant.tenantId);

  // The same bundle over HTTP, as one archive, to the tenant's super-admin alone.
  expect(done.downloadUrl).toBe(`/api/v1/tenant-exports/${id}/bundle`);
  const res = await bundleOf(tenant.token, id);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/gzip');
  expect(res.headers.get('content-disposition')).toBe(`attachment; filename=tenant-export-${id}.tar.gz`);
  expect(res.headers.get('etag')).toBe(`"${done.archiveSha256}"`);
  expect(res.bytes.length).toBe(done.archiveSize);
  expect(sha256(res.bytes)).toBe(done.archiveSha256);
  const unpacked = path.join(work, 'downloaded');
  await fs.mkdir(unpacked);
  await pipeline(Readable.from([res.bytes]), extractTar({ cwd: unpacked }));
  const downloaded = JSON.parse(await fs.readFile(path.join(unpacked, 'manifest.json'), 'utf8')) as Manifest;
  expect(downloaded).toEqual(manifest);
  // Every checksum the manifest gives holds for the downloaded files.
  for (const r of [downloaded.tenantRecord, ...Object.values(downloaded.records)])
    expect([r.file, sha256(await fs.readFile(path.join(unpacked, r.file)))]).toEqual([r.file, r.sha256]);
  expect(Object.keys(downloaded.files).length).toBeGreaterThan(0);
  for (const f of Object.values(downloaded.files)) {
    const bytes = await fs.readFile(path.join(unpacked, f.file));
    expect([f.file, bytes.length, sha256(bytes)]).toEqual([f.file, f.size, f.sha256]);
  }
  expect((await bundleOf(tenant.token, id, { range: 'bytes=0-9' })).bytes.length).toBe(10);
  expectErrorBody(await clerk.client.get(`/tenant-exports/${id}/bundle`), 403);
  expectErrorBody(await other.client.get(`/tenant-exports/${id}/bundle`), 404);
  expectErrorBody(await tenant.client.get(`/tenant-exports/${randomUUID()}/bundle`), 404);
  expectErrorBody(await tenant.client.get(`/tenant-exports/not-an-id/bundle`), 404);
  const pending = await tenant.client.post('/tenant-exports');
  expectErrorBody(await tenant.client.get(`/tenant-exports/${pending.body.id}/bundle`), 409);
  while (await runNextExport(server.orm, server.app.files.backend, dataDir));

  const imported = await importTenant(server.orm, server.app.files.backend, bundle, {
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

it('an export whose process died (RUNNING, its lease run out) is taken over and run again; after the last attempt it fails saying why', async () => {
  const dataDir = path.join(work, 'takeover');
  const dead = (await tenant.client.post('/tenant-exports')).body.id as string;
  await leave(
    tenant.tenantId,
    dead,
    `status = 'RUNNING', attempts = 1, progress = 40, started = now() - interval '10 minutes', lease_until = now() - interval '5 minutes'`,
  );
  // What the dead run had written of its bundle on this machine.
  await fs.mkdir(path.join(dataDir, 'exports', tenant.tenantId, dead, 'records'), { recursive: true });
  // One still held by a live process (its lease not run out) is left alone.
  const held = (await tenant.client.post('/tenant-exports')).body.id as string;
  await leave(
    tenant.tenantId,
    held,
    `status = 'RUNNING', attempts = 1, lease_until = now() + interval '1 hour'`,
  );
  const hopeless = (await tenant.client.post('/tenant-exports')).body.id as string;
  await leave(
    tenant.tenantId,
    hopeless,
    `status = 'RUNNING', attempts = ${EXPORT_ATTEMPTS}, lease_until = '2026-01-01T00:00:00Z'`,
  );

  let runs = 0;
  while (await runNextExport(server.orm, server.app.files.backend, dataDir, { leaseMs: 30 })) runs++;
  expect(runs).toBe(2);

  const taken = (await tenant.client.get(`/tenant-exports/${dead}`)).body;
  expect(taken).toEqual(
    expect.objectContaining({
      status: 'DONE',
      progress: 100,
      bundle: `exports/${tenant.tenantId}/${dead}`,
      downloadUrl: `/api/v1/tenant-exports/${dead}/bundle`,
    }),
  );
  const downloaded = await bundleOf(tenant.token, dead);
  expect(downloaded.status).toBe(200);
  expect(sha256(downloaded.bytes)).toBe(taken.archiveSha256);
  expect((await tenant.client.get(`/tenant-exports/${held}`)).body.status).toBe('RUNNING');
  expect((await tenant.client.get(`/tenant-exports/${hopeless}`)).body).toEqual(
    expect.objectContaining({
      status: 'FAILED',
      message: `the process running the export stopped without finishing it (its lease ran out at 2026-01-01T00:00:00.000Z), ${EXPORT_ATTEMPTS} times; start a new export`,
      completed: expect.any(String),
      downloadUrl: null,
    }),
  );
  // The held one, once its lease runs out too, is taken over like the first.
  await leave(tenant.tenantId, held, `lease_until = now() - interval '1 second'`);
  expect(await runNextExport(server.orm, server.app.files.backend, dataDir)).toBe(true);
  expect((await tenant.client.get(`/tenant-exports/${held}`)).body.status).toBe('DONE');
});

it('a running export renews its lease while it works, and lets it go when it ends', async () => {
  const id = (await tenant.client.post('/tenant-exports')).body.id as string;
  const leases = new Set<string>();
  let finished = false;
  // A store slow to take the bundle: the run outlasts several renewals however fast the machine.
  const slow = backendWithPut(server.app.files.backend, async (key, body, type, own) => {
    await new Promise((r) => setTimeout(r, 300));
    await own(key, body, type);
  });
  const run = runNextExport(server.orm, slow, path.join(work, 'renewed'), {
    leaseMs: 150,
  }).finally(() => (finished = true));
  while (!finished) {
    const row = await leaseOf(tenant.tenantId, id);
    if (row.status === 'RUNNING' && row.lease) leases.add(row.lease);
    await new Promise((r) => setTimeout(r, 10));
  }
  expect(await run).toBe(true);
  // The lease the claim set, then at least one renewal (every 50 ms here).
  expect(leases.size).toBeGreaterThan(1);
  expect(await leaseOf(tenant.tenantId, id)).toEqual({ status: 'DONE', lease: null });
});

it('a run whose export was taken over while it worked writes nothing when it ends, and keeps no archive', async () => {
  const id = (await tenant.client.post('/tenant-exports')).body.id as string;
  const stored = async () =>
    (await fs.readdir(path.join(server.app.files.settings.dir, tenant.tenantId))).sort();
  const before = await stored();
  let finished = false;
  const run = runNextExport(server.orm, server.app.files.backend, path.join(work, 'overtaken')).finally(
    () => (finished = true),
  );
  let taken = false;
  while (!finished && !taken) {
    if ((await leaseOf(tenant.tenantId, id)).status === 'RUNNING') {
      // Another worker's claim, as after a stall longer than the lease.
      await leave(tenant.tenantId, id, `attempts = attempts + 1`);
      taken = true;
    } else await new Promise((r) => setTimeout(r, 5));
  }
  expect(taken).toBe(true);
  expect(await run).toBe(true);
  expect((await tenant.client.get(`/tenant-exports/${id}`)).body).toEqual(
    expect.objectContaining({ status: 'RUNNING', downloadUrl: null, completed: null }),
  );
  expect(await stored()).toEqual(before);
  await leave(tenant.tenantId, id, `status = 'FAILED'`);
});

it('a stored file whose bytes are missing: the export ends DONE without them, saying how many, the manifest which', async () => {
  const lossy = await server.tenant('Lossy');
  const form = new FormData();
  form.append('file', new Blob(['soon gone'], { type: 'text/plain' }), 'gone.txt');
  const uploaded = await fetch(`${server.baseUrl}/api/v1/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${lossy.token}` },
    body: form,
  });
  expect(uploaded.status).toBe(201);
  const lost = ((await uploaded.json()) as { file: { blobId: string } }).file.blobId;
  await fs.rm(path.join(server.app.files.settings.dir, lossy.tenantId, lost));
  const id = (await lossy.client.post('/tenant-exports')).body.id as string;
  while (await runNextExport(server.orm, server.app.files.backend, path.join(work, 'lossy')));
  const done = (await lossy.client.get(`/tenant-exports/${id}`)).body;
  expect(done).toEqual(
    expect.objectContaining({
      status: 'DONE',
      message: expect.stringMatching(
        /^\d+ records, 0 files; the bytes of 1 stored file\(s\) were missing from the file store and are left out/,
      ),
    }),
  );
  const manifest = JSON.parse(
    await fs.readFile(path.join(work, 'lossy', done.bundle, 'manifest.json'), 'utf8'),
  ) as Manifest;
  expect({ files: manifest.files, missing: manifest.missingFiles }).toEqual({ files: {}, missing: [lost] });
});
