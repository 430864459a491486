import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getNamedType, isLeafType, type GraphQLObjectType } from 'graphql';
import type { AbstractSqlConnection, Knex } from '@mikro-orm/postgresql';
import { signToken } from '../../src/auth/jwt';
import { BundleError, exportTenant, importTenant, type Manifest } from '../../src/services/tenant-bundle';
import { tenantTables } from '../../src/services/tenant-table-repository';
import { Client, expectErrorBody } from '../support/http';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { fillTenant, type FilledTenant } from '../support/tenant-fixture';

/**
 * A tenant exported and imported as a new one: every row of every tenant table (as the catalog
 * lists them) comes back field by field under the new tenant id, with its stored files; a bundle
 * that is altered, truncated, from a newer schema, named like an existing tenant or refused by the
 * database halfway leaves nothing behind.
 */
jest.setTimeout(300_000);
// The fixture's webhook points at a local address, which only this setting lets through.
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';

let server: TestServer;
let source: TestTenant;
let filled: FilledTenant;
let work: string;
let bundle: string;
let manifest: Manifest;
let apiKey: { id: string; key: string; hint: string };

const knex = () => (server.orm.em.getConnection() as AbstractSqlConnection).getKnex() as Knex;

/**
 * Every row of every tenant table of `tenantId`, as JSON, in key order, with the values an import
 * assigns itself written as the rule that makes them: the tenant columns, the stored files'
 * storage keys and the API keys' starts (`<tenant>`), and no secret for an API key. A tenant id
 * anywhere else (a text, a JSON document) is a value like any other, kept as written.
 */
async function rowsOf(tenantId: string): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  const hex = tenantId.replace(/-/g, '');
  for (const table of await tenantTables(knex())) {
    const result = (await knex().raw(
      `select row_to_json(t)::text as line from "${table.name}" t where tenant_id = ? order by ${table.key
        .map((k) => `"${k}"`)
        .join(', ')}`,
      [tenantId],
    )) as { rows: { line: string }[] };
    out[table.name] = result.rows.map((r) => {
      const row = JSON.parse(r.line) as Record<string, unknown>;
      for (const column of table.tenantColumns)
        row[column] = row[column] === tenantId ? '<tenant>' : row[column];
      if (table.name === 'stored_file' && row.storage_key === `${tenantId}/${row.id as string}`)
        row.storage_key = '<tenant>/<id>';
      if (table.name === 'api_key') {
        row.hint =
          row.hint === `bms_${hex}${(row.id as string).replace(/-/g, '')}` ? '<tenant><id>' : row.hint;
        delete row.secret_hash;
      }
      return row;
    });
  }
  return out;
}

/** Every field of a GraphQL object type that needs no selection of its own. */
function leafFields(typeName: string): string {
  const type = server.app.schema.getType(typeName) as GraphQLObjectType;
  return Object.values(type.getFields())
    .filter((f) => isLeafType(getNamedType(f.type)) && f.args.length === 0)
    .map((f) => f.name)
    .join(' ');
}

const tenantCount = async () =>
  Number(
    ((await knex().raw('select count(*)::int as n from tenant')) as { rows: { n: number }[] }).rows[0].n,
  );

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'bms-bundle-'));
  server = await startServer();
  source = await server.tenant('Portable');
  filled = await fillTenant(server, source);
  const key = await source.client.post('/api-keys', { name: 'integration', permissions: ['READ_CONCEPTS'] });
  expect(key.status).toBe(201);
  apiKey = key.body;
  bundle = path.join(work, 'bundle');
  manifest = await exportTenant(server.orm, server.app.files.backend, source.tenantId, bundle);
});
afterAll(async () => {
  await server?.close();
  await fs.rm(work, { recursive: true, force: true });
});

/** A copy of the bundle with `change` applied, its manifest rewritten unless `keepManifest`. */
async function alteredBundle(
  change: (dir: string, manifest: Manifest) => Promise<void>,
  keepManifest = false,
): Promise<string> {
  const dir = path.join(work, `altered-${randomUUID()}`);
  await fs.cp(bundle, dir, { recursive: true });
  const copy = JSON.parse(JSON.stringify(manifest)) as Manifest;
  await change(dir, copy);
  if (!keepManifest) await fs.writeFile(path.join(dir, 'manifest.json'), JSON.stringify(copy));
  return dir;
}

describe('tenant export and import', () => {
  it('the bundle holds one NDJSON file per tenant table, the stored files, and a manifest with counts and checksums', async () => {
    const tables = (await tenantTables(knex())).map((t) => t.name).sort();
    expect(Object.keys(manifest.records).sort()).toEqual(tables);
    expect(manifest.schemaVersion).toMatch(/^Migration\d{14}/);
    for (const record of Object.values(manifest.records)) {
      const text = await fs.readFile(path.join(bundle, record.file), 'utf8');
      expect(createHash('sha256').update(text).digest('hex')).toBe(record.sha256);
      expect(text === '' ? 0 : text.trimEnd().split('\n').length).toBe(record.count);
    }
    expect(Object.keys(manifest.files)).toContain(filled.ids.storedFile);
    // Data in every group: the tables the fixture fills are all in the bundle, non-empty.
    const filledTables = Object.entries(manifest.records)
      .filter(([, r]) => r.count > 0)
      .map(([t]) => t);
    expect(filledTables).toEqual(
      expect.arrayContaining([
        'subsidiary',
        'customer',
        'supplier',
        'opportunity',
        'employee',
        'tax_percentage',
        'invoice',
        'ap_invoice',
        'contact_form_widget_config',
        'lead',
        'activity',
        'booking',
        'inbound_email',
        'sent_mail',
        'hr_project',
        'epic',
        'feature',
        'task',
        'team',
        'stock_site',
        'product',
        'stock_inventory',
        'stock_transfer',
        'waste_record',
        'concept',
        'configurator_type',
        'tenant_role',
        'app_user',
        'notification',
        'webhook_endpoint',
        'outbox_event',
        'stored_file',
        'tenant_sequence',
      ]),
    );
  });

  it('imported as a new tenant, every record of every table comes back field by field, and the files too', async () => {
    const imported = await importTenant(server.orm, server.app.files.backend, bundle, {
      name: `Imported ${randomUUID().slice(0, 8)}`,
    });
    expect(imported.tenantId).not.toBe(source.tenantId);
    const before = await rowsOf(source.tenantId);
    const after = await rowsOf(imported.tenantId);
    for (const table of Object.keys(before))
      expect({ table, rows: after[table] }).toEqual({ table, rows: before[table] });
    expect(Object.values(after).flat().length).toBeGreaterThan(30);

    // The tenant's own row: the same settings under the new id and name.
    const tenantRow = async (id: string) =>
      (
        (await knex().raw('select row_to_json(t) as r from tenant t where id = ?', [id])) as {
          rows: { r: any }[];
        }
      ).rows[0].r;
    const { id: _a, name: _b, ...was } = await tenantRow(source.tenantId);
    const { id: newId, name, ...is } = await tenantRow(imported.tenantId);
    expect({ newId, name }).toEqual({ newId: imported.tenantId, name: imported.name });
    expect(is).toEqual(was);

    // Through the API, as the imported tenant's admin (the same user id, under the new tenant).
    const token = signToken(server.jwt, {
      sub: source.adminId,
      email: source.adminEmail,
      tenantId: imported.tenantId,
    });
    const client = new Client(server.baseUrl, token);
    for (const [query, type, id] of [
      ['lead', 'Lead', filled.ids.createLead],
      ['invoice', 'Invoice', filled.ids.createInvoice],
      ['booking', 'Booking', filled.ids.createBooking],
    ]) {
      const fields = leafFields(type);
      const read = async (c: Client) => {
        const res = await c.graphql(`query($id: ID!) { ${query}(id: $id) { ${fields} } }`, { id });
        expect(res.body.errors).toBeUndefined();
        return { ...(res.body.data as any)[query], tenantId: '<tenant>' };
      };
      const copy = await read(client);
      expect(copy.id).toBe(id);
      expect(copy).toEqual(await read(source.client));
    }
    const download = async (c: Client) => {
      const res = await fetch(`${server.baseUrl}/api/v1/files/${filled.ids.storedFile}`, {
        headers: { authorization: `Bearer ${c.token}` },
      });
      return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()).toString('base64') };
    };
    const copied = await download(client);
    expect(copied.status).toBe(200);
    expect(copied).toEqual(await download(source.client));
  });

  it('an imported API key keeps its name and permissions, not its secret: refused until rotated, its start naming the new tenant', async () => {
    const { tenantId } = await importTenant(server.orm, server.app.files.backend, bundle, {
      name: `Keys ${randomUUID().slice(0, 8)}`,
    });
    const admin = new Client(
      server.baseUrl,
      signToken(server.jwt, { sub: source.adminId, email: source.adminEmail, tenantId }),
    );
    const hint = `bms_${tenantId.replace(/-/g, '')}${apiKey.id.replace(/-/g, '')}`;
    expect((await admin.get(`/api-keys/${apiKey.id}`)).body).toEqual(
      expect.objectContaining({ name: 'integration', permissions: ['READ_CONCEPTS'], hint }),
    );
    // The exported key with its tenant part made the new tenant's: its secret is not kept.
    const secret = apiKey.key.slice(apiKey.hint.length + 1);
    const moved = await new Client(server.baseUrl, `${hint}_${secret}`).get('/concepts/find-all');
    expectErrorBody(moved, 401);
    expect(moved.body.detail).toMatch(/imported with its tenant: rotate it first/);
    const rotated = await admin.post(`/api-keys/${apiKey.id}/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.key.startsWith(`${hint}_`)).toBe(true);
    expect((await new Client(server.baseUrl, rotated.body.key).get('/concepts/find-all')).status).toBe(200);
    // The original key goes on working in the original tenant.
    expect((await new Client(server.baseUrl, apiKey.key).get('/concepts/find-all')).status).toBe(200);
  });

  it('an altered, truncated or newer-schema bundle, or one naming an existing tenant: a clear error, nothing imported', async () => {
    const cases: [string, Promise<string>, RegExp][] = [
      [
        'altered',
        alteredBundle(async (dir) => {
          const file = path.join(dir, 'records', 'lead.ndjson');
          await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace('Jane', 'Joan'));
        }, true),
        /lead: records\/lead\.ndjson does not match its checksum/,
      ],
      [
        'truncated',
        alteredBundle(async (dir) => {
          const file = path.join(dir, 'records', 'invoice.ndjson');
          const text = await fs.readFile(file, 'utf8');
          await fs.writeFile(file, text.slice(0, Math.floor(text.length / 2)));
        }, true),
        /invoice: records\/invoice\.ndjson does not match its checksum/,
      ],
      [
        'a file missing',
        alteredBundle(async (dir) => fs.rm(path.join(dir, 'files', filled.ids.storedFile)), true),
        /files\/.* is missing from the bundle/,
      ],
      [
        'newer schema',
        alteredBundle(async (_dir, m) => {
          m.schemaVersion = 'Migration20991231000000_future';
        }),
        /newer schema \(Migration20991231000000_future\).*upgrade it first/,
      ],
      ['not a bundle', Promise.resolve(path.join(work, 'nowhere')), /is not a tenant bundle/],
    ];
    const tenants = await tenantCount();
    for (const [what, dir, message] of cases) {
      const error = await importTenant(server.orm, server.app.files.backend, await dir).catch(
        (e: unknown) => e,
      );
      expect({ what, error: error instanceof BundleError ? error.message : error }).toEqual({
        what,
        error: expect.stringMatching(message),
      });
    }
    const taken = await importTenant(server.orm, server.app.files.backend, bundle).catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(BundleError);
    expect((taken as Error).message).toMatch(/a tenant named "Portable .*" already exists/);
    expect(await tenantCount()).toBe(tenants);
  });

  it('a record file changed after it was checked, while the import streams it: refused at its end, nothing imported', async () => {
    const dir = await alteredBundle(async () => undefined, true);
    const tenants = await tenantCount();
    let changed = false;
    const error = await importTenant(
      server.orm,
      server.app.files.backend,
      dir,
      { name: `Changed ${randomUUID()}` },
      ({ what }) => {
        // Once the first table is in, a later one (task) is changed on disk, line count kept.
        if (what === 'files' || changed) return;
        changed = true;
        const file = path.join(dir, 'records', 'task.ndjson');
        const text = readFileSync(file, 'utf8');
        writeFileSync(file, text.replace('"title":"', '"title":"X'));
      },
    ).catch((e: unknown) => e);
    expect(changed).toBe(true);
    expect(error).toBeInstanceOf(BundleError);
    expect((error as Error).message).toMatch(/task: records\/task\.ndjson does not match its checksum/);
    expect(await tenantCount()).toBe(tenants);
  });

  it('a record the database refuses halfway: one transaction, so no tenant, no row and no file is left', async () => {
    const dir = await alteredBundle(async (d, m) => {
      // task comes late in the load order (after project, epic and feature): the records before it
      // are in when it fails.
      const file = path.join(d, 'records', 'task.ndjson');
      const text = (await fs.readFile(file, 'utf8')).replace(/"title":"[^"]*"/, '"title":null');
      await fs.writeFile(file, text);
      m.records.task.sha256 = createHash('sha256').update(text).digest('hex');
    });
    const tenants = await tenantCount();
    // Every stored file's path (an empty folder a removed file leaves holds nothing).
    const stored = async () =>
      (await fs.readdir(server.app.files.settings.dir, { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile())
        .map((e) => path.join(e.parentPath, e.name))
        .sort();
    const filesBefore = await stored();
    const error = await importTenant(server.orm, server.app.files.backend, dir, {
      name: `Half ${randomUUID()}`,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BundleError);
    expect((error as Error).message).toMatch(/refused .*nothing was imported/);
    expect(await tenantCount()).toBe(tenants);
    expect(await stored()).toEqual(filesBefore);
  });
});
