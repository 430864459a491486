import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from '@mikro-orm/postgresql';
import { signToken } from '../../src/auth/jwt';
import { BundleError, exportTenant, importTenant, type Manifest } from '../../src/services/tenant-bundle';
import { removeDue, requestDeletion } from '../../src/services/tenant-lifecycle';
import { actAsApplication, knexOf, tenantTables } from '../../src/services/tenant-table-repository';
import { workerDatabaseUrl } from '../support/database';
import { Client, expectErrorBody } from '../support/http';
import { childEnv, cliCommands, randomSecret } from '../support/process';
import { startServer, type TestServer, type TestTenant } from '../support/server';

/**
 * What an import of a tenant bundle trusts: nothing that names a tenant or a place in the file
 * store. Crafted bundles (an export of tenant A with records added for tenant B, checksums
 * fixed; a stored file whose key is B's; one whose key climbs out of the store) are refused or
 * made harmless, and nothing of B changes. A file whose bytes are missing is said so: on export
 * (non-zero, unless told to skip it), on import (refused, unless allowed) and on download (404).
 */
jest.setTimeout(300_000);

let server: TestServer;
let a: TestTenant;
let b: TestTenant;
let work: string;
let bundle: string;
let manifest: Manifest;
let aFile: { id: string; bytes: string };
let bFile: { id: string; bytes: string };
let aConcept: string;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const knex = (): Knex => knexOf(server.orm);

async function upload(
  tenant: TestTenant,
  name: string,
  content: string,
): Promise<{ id: string; bytes: string }> {
  const form = new FormData();
  form.append('file', new Blob([content], { type: 'text/plain' }), name);
  const res = await fetch(`${server.baseUrl}/api/v1/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tenant.token}` },
    body: form,
  });
  expect(res.status).toBe(201);
  return { id: ((await res.json()) as { file: { blobId: string } }).file.blobId, bytes: content };
}

async function download(token: string, id: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${server.baseUrl}/api/v1/files/${id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: res.status, text: await res.text() };
}

/** Every row of every tenant table of the tenant, and its own row: what "nothing changed" compares. */
async function everything(tenantId: string): Promise<Record<string, string[]>> {
  return knex().transaction(async (trx) => {
    const out: Record<string, string[]> = {};
    for (const table of [
      { name: 'tenant', column: 'id' },
      ...(await tenantTables(trx)).map((t) => ({ name: t.name, column: 'tenant_id' })),
    ]) {
      const { rows } = (await trx.raw(
        `select row_to_json(t)::text as line from "${table.name}" t where "${table.column}" = ? order by 1`,
        [tenantId],
      )) as { rows: { line: string }[] };
      out[table.name] = rows.map((r) => r.line);
    }
    return out;
  });
}

const tenantCount = async () =>
  ((await knex().raw('select count(*)::int as n from tenant')) as { rows: { n: number }[] }).rows[0].n;

/**
 * A copy of the bundle with `change` applied to the lines of record files (by table), the
 * manifest's counts and checksums fixed as a forger would.
 */
async function forged(
  change: Record<string, (lines: string[]) => string[]>,
  more?: (dir: string, m: Manifest) => Promise<void>,
): Promise<string> {
  const dir = path.join(work, `forged-${randomUUID()}`);
  await fs.cp(bundle, dir, { recursive: true });
  const copy = JSON.parse(JSON.stringify(manifest)) as Manifest;
  for (const [table, edit] of Object.entries(change)) {
    const record = copy.records[table];
    const file = path.join(dir, record.file);
    const text = await fs.readFile(file, 'utf8');
    const lines = edit(text === '' ? [] : text.trimEnd().split('\n'));
    const written = lines.map((l) => `${l}\n`).join('');
    await fs.writeFile(file, written);
    record.count = lines.length;
    record.sha256 = sha256(written);
  }
  await more?.(dir, copy);
  await fs.writeFile(path.join(dir, 'manifest.json'), JSON.stringify(copy));
  return dir;
}

/** The line of a record file holding the record `id`, parsed. */
async function recordOf(table: string, id: string): Promise<Record<string, unknown>> {
  const text = await fs.readFile(path.join(bundle, manifest.records[table].file), 'utf8');
  const line = text.split('\n').find((l) => l && (JSON.parse(l) as { id: string }).id === id);
  if (!line) throw new Error(`no ${table} ${id} in the bundle`);
  return JSON.parse(line) as Record<string, unknown>;
}

const replaced = (id: string, change: (row: Record<string, unknown>) => void) => (lines: string[]) =>
  lines.map((l) => {
    const row = JSON.parse(l) as Record<string, unknown>;
    if (row.id !== id) return l;
    change(row);
    return JSON.stringify(row);
  });

const imported = (dir: string, options: Parameters<typeof importTenant>[3] = {}) =>
  importTenant(server.orm, server.app.files.backend, dir, {
    name: `Imported ${randomUUID().slice(0, 8)}`,
    ...options,
  });

const failure = (dir: string, options: Parameters<typeof importTenant>[3] = {}) =>
  imported(dir, options).then(
    () => {
      throw new Error('the import was expected to be refused');
    },
    (err: unknown) => {
      expect(err).toBeInstanceOf(BundleError);
      return (err as Error).message;
    },
  );

/** A token for the imported tenant's admin: the same user id, under the new tenant. */
const adminOf = (tenantId: string) =>
  signToken(server.jwt, { sub: a.adminId, email: a.adminEmail, tenantId });

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'bms-bundle-trust-'));
  server = await startServer();
  [a, b] = await Promise.all([server.tenant('Exporter'), server.tenant('Victim')]);
  aFile = await upload(a, 'a.txt', `A's own bytes ${randomUUID()}`);
  bFile = await upload(b, 'b.txt', `B's secret bytes ${randomUUID()}`);
  aConcept = (await a.client.post('/concepts', { name: 'A house', buildingType: 'ROW' })).body.id as string;
  expect(aConcept).toEqual(expect.any(String));
  expect((await b.client.post('/concepts', { name: 'B house', buildingType: 'ROW' })).status).toBe(201);
  bundle = path.join(work, 'bundle');
  manifest = await exportTenant(server.orm, server.app.files.backend, a.tenantId, bundle);
});
afterAll(async () => {
  await server?.close();
  await fs.rm(work, { recursive: true, force: true });
});

describe('records of another tenant', () => {
  it('a bundle of A with records for B (a super-admin, an API key with a chosen secret, a concept) is refused whole, naming the table and line; nothing of B changes and the planted key gets 401', async () => {
    const secret = 'planted-secret-planted-secret-planted-secret';
    const keyId = randomUUID();
    const plantedUser = {
      ...(await recordOf('app_user', a.adminId)),
      tenant_id: b.tenantId,
      id: randomUUID(),
      email: 'planted@example.test',
    };
    expect((plantedUser as Record<string, unknown>).roles).toContain('SUPER_ADMIN');
    const columns = manifest.records.api_key.columns;
    const plantedKey: Record<string, unknown> = Object.fromEntries(columns.map((c) => [c, null]));
    Object.assign(plantedKey, {
      tenant_id: b.tenantId,
      id: keyId,
      version: 1,
      name: 'planted',
      hint: `bms_${b.tenantId.replace(/-/g, '')}${keyId.replace(/-/g, '')}`,
      secret_hash: sha256(secret),
      permissions: ['READ_CONCEPTS', 'CREATE_CONCEPTS'],
      creator_id: b.adminId,
    });
    const plantedConcept = {
      ...(await recordOf('concept', aConcept)),
      tenant_id: b.tenantId,
      id: randomUUID(),
      name: 'Planted',
    };
    const add = (row: object) => (lines: string[]) => [...lines, JSON.stringify(row)];
    const before = await everything(b.tenantId);
    const tenants = await tenantCount();
    const lineOf = async (table: string) => manifest.records[table].count + 1;

    const all = await forged({
      app_user: add(plantedUser),
      api_key: add(plantedKey),
      concept: add(plantedConcept),
    });
    expect(await failure(all)).toMatch(
      new RegExp(
        `^(app_user|api_key|concept): line \\d+ of records/\\1\\.ndjson names the tenant "${b.tenantId}" in tenant_id, not the exported tenant ${a.tenantId}`,
      ),
    );
    for (const [table, row] of [
      ['app_user', plantedUser],
      ['api_key', plantedKey],
      ['concept', plantedConcept],
    ] as const)
      expect(await failure(await forged({ [table]: add(row) }))).toContain(
        `${table}: line ${await lineOf(table)} of records/${table}.ndjson names the tenant "${b.tenantId}" in tenant_id`,
      );
    // The tenant's own record names the tenant by its id.
    const otherTenant = await forged({}, async (dir, m) => {
      const file = path.join(dir, 'tenant.ndjson');
      const text = (await fs.readFile(file, 'utf8')).replace(a.tenantId, b.tenantId);
      await fs.writeFile(file, text);
      m.tenantRecord.sha256 = sha256(text);
    });
    expect(await failure(otherTenant)).toMatch(/^tenant: line 1 of tenant\.ndjson names the tenant .* in id/);

    expect(await tenantCount()).toBe(tenants);
    expect(await everything(b.tenantId)).toEqual(before);
    const key = `bms_${b.tenantId.replace(/-/g, '')}${keyId.replace(/-/g, '')}_${secret}`;
    expectErrorBody(await new Client(server.baseUrl, key).get('/concepts/find-all'), 401);
    expectErrorBody(
      await new Client(server.baseUrl, key).post('/concepts', { name: 'Owned', buildingType: 'ROW' }),
      401,
    );
  });

  it('the import inserts as the application role with the new tenant set: a row of another tenant is refused by row-level security', async () => {
    const error = await knex()
      .transaction(async (trx) => {
        await actAsApplication(trx, a.tenantId);
        const row = { ...(await recordOf('concept', aConcept)), tenant_id: b.tenantId, id: randomUUID() };
        await trx.raw('insert into concept select * from json_populate_record(null::concept, ?::json)', [
          JSON.stringify(row),
        ]);
      })
      .catch((e: unknown) => e as { code?: string });
    expect(error).toEqual(expect.objectContaining({ code: '42501' }));
    expect((await b.client.get('/concepts/find-all')).body.map((c: { name: string }) => c.name)).toEqual([
      'B house',
    ]);
  });

  it("a tenant id inside a record's text is kept as written; only the tenant columns are assigned", async () => {
    const dir = await forged({
      concept: replaced(aConcept, (row) => (row.name = `Mentions ${a.tenantId} and ${b.tenantId}`)),
    });
    const { tenantId } = await imported(dir);
    const res = await new Client(server.baseUrl, adminOf(tenantId)).get(`/concepts/find/${aConcept}`);
    expect(res.status).toBe(200);
    expect(res.body.name).toBe(`Mentions ${a.tenantId} and ${b.tenantId}`);
  });
});

describe('storage keys', () => {
  it("a stored file record carrying B's storage key or a traversal key: the service makes the key, the imported tenant never reads B's bytes, and purging it leaves B's file", async () => {
    const bKey = `${b.tenantId}/${bFile.id}`;
    for (const key of [bKey, `${'../'.repeat(4)}etc/hostname`]) {
      const dir = await forged({ stored_file: replaced(aFile.id, (row) => (row.storage_key = key)) });
      const { tenantId } = await imported(dir);
      const copy = await download(adminOf(tenantId), aFile.id);
      expect({ key, ...copy }).toEqual({ key, status: 200, text: aFile.bytes });
      const { rows } = (await knex().transaction(async (trx) => {
        await actAsApplication(trx, tenantId);
        return trx.raw('select storage_key from stored_file where tenant_id = ? and id = ?', [
          tenantId,
          aFile.id,
        ]);
      })) as { rows: { storage_key: string }[] };
      expect(rows).toEqual([{ storage_key: `${tenantId}/${aFile.id}` }]);
    }

    // A record of B's file id with B's key and no bytes: refused, or, when allowed, a 404.
    const planted = { ...(await recordOf('stored_file', aFile.id)), id: bFile.id, storage_key: bKey };
    const dir = await forged({ stored_file: (lines) => [...lines, JSON.stringify(planted)] });
    expect(await failure(dir)).toMatch(
      new RegExp(
        `^stored_file: line ${manifest.records.stored_file.count + 1} \\(file ${bFile.id}\\) .* have no bytes in the bundle.*--allow-missing-files`,
      ),
    );
    const { tenantId } = await imported(dir, { allowMissingFiles: true });
    const token = adminOf(tenantId);
    const res = await new Client(server.baseUrl, token).get(`/files/${bFile.id}`);
    expectErrorBody(res, 404);
    expect(res.body.detail).toMatch(/missing from the file store/);

    // The imported tenant purged (its two files' keys are its own, one without bytes): B's bytes
    // stay, and B still downloads them.
    await requestDeletion(server.orm, tenantId, 0);
    expect(await removeDue(server.orm, server.app.files.backend, tenantId)).toEqual([
      expect.objectContaining({ tenantId, files: 2 }),
    ]);
    expect(await download(b.token, bFile.id)).toEqual({ status: 200, text: bFile.bytes });
  });

  it("file bytes are checked against the manifest's size and checksum, and against their record", async () => {
    const bytes = path.join('files', aFile.id);
    const altered = await forged({}, async (dir) => fs.writeFile(path.join(dir, bytes), 'other bytes'));
    expect(await failure(altered)).toMatch(/does not match its size and checksum/);
    const relabelled = await forged({}, async (dir, m) => {
      await fs.writeFile(path.join(dir, bytes), 'other bytes');
      m.files[aFile.id] = { ...m.files[aFile.id], size: 11, sha256: sha256('other bytes') };
    });
    expect(await failure(relabelled)).toMatch(
      /^stored_file: line \d+ describes file .* with another size or checksum/,
    );
    const stray = randomUUID();
    const extra = await forged({}, async (dir, m) => {
      await fs.writeFile(path.join(dir, 'files', stray), 'x');
      m.files[stray] = { file: `files/${stray}`, size: 1, sha256: sha256('x') };
    });
    expect(await failure(extra)).toMatch(new RegExp(`files: ${stray} is the bytes of no stored_file record`));
  });
});

describe('missing bytes', () => {
  it('an export whose files lack their bytes fails naming them, unless told to skip them; the download is a 404; the import refuses them unless allowed', async () => {
    const c = await server.tenant('Lossy');
    const kept = await upload(c, 'kept.txt', 'kept bytes');
    const lost = await upload(c, 'lost.txt', 'lost bytes');
    await fs.rm(path.join(server.app.files.settings.dir, c.tenantId, lost.id));
    const res = await c.client.get(`/files/${lost.id}`);
    expectErrorBody(res, 404);
    expect(res.body.detail).toBe('the bytes of lost.txt are missing from the file store');
    expect(await download(c.token, kept.id)).toEqual({ status: 200, text: 'kept bytes' });

    const env = childEnv({
      DATABASE_URL: await workerDatabaseUrl(),
      JWT_SECRET: randomSecret(),
      FILES_DIR: server.app.files.settings.dir,
    });
    const { ok, fails } = cliCommands(() => env);
    const out = path.join(work, 'lossy');
    expect(await fails('tenant:export', '--tenant', c.tenantId, '--out', out)).toEqual({
      code: 1,
      line: expect.stringMatching(
        new RegExp(
          `1 stored file\\(s\\) have no bytes in the file store \\(${lost.id}\\): nothing was exported; export with --skip-missing-files`,
        ),
      ),
    });
    await expect(fs.stat(out)).rejects.toThrow(/ENOENT/);
    const exported = await ok('tenant:export', '--tenant', c.tenantId, '--out', out, '--skip-missing-files');
    expect(exported).toEqual(
      expect.objectContaining({
        files: 1,
        missingFiles: [lost.id],
        records: expect.objectContaining({ stored_file: 2 }),
      }),
    );
    const written = JSON.parse(await fs.readFile(path.join(out, 'manifest.json'), 'utf8')) as Manifest;
    expect({ files: Object.keys(written.files), missing: written.missingFiles }).toEqual({
      files: [kept.id],
      missing: [lost.id],
    });

    expect(await fails('tenant:import', '--bundle', out, '--name', `Lossy copy ${randomUUID()}`)).toEqual({
      code: 1,
      line: expect.stringMatching(
        /stored_file: line \d \(file .*\).*the export left them out.*--allow-missing-files/,
      ),
    });
    const copy = await ok(
      'tenant:import',
      '--bundle',
      out,
      '--name',
      `Lossy copy ${randomUUID()}`,
      '--allow-missing-files',
    );
    expect(copy).toEqual(
      expect.objectContaining({ files: 1, records: expect.objectContaining({ stored_file: 2 }) }),
    );
    const token = signToken(server.jwt, { sub: c.adminId, email: c.adminEmail, tenantId: copy.tenantId });
    expect(await download(token, kept.id)).toEqual({ status: 200, text: 'kept bytes' });
    expectErrorBody(await new Client(server.baseUrl, token).get(`/files/${lost.id}`), 404);
  });
});
