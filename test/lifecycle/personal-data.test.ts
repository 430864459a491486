import type { AbstractSqlConnection, Knex } from '@mikro-orm/postgresql';
import { AppError } from '../../src/errors';
import { LOOKS_PERSONAL, NOT_PERSONAL, PERSONAL_DATA } from '../../src/db/personal-data';
import { erasePerson, exportPerson } from '../../src/services/personal-data';
import { tenantTables } from '../../src/services/tenant-table-repository';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { fillTenant, JANE } from '../support/tenant-fixture';
import { expectErrorBody } from '../support/http';

/**
 * One person's data in a tenant: exported as one document with every record about them and every
 * record that mentions them; erased everywhere (records, history, events, outbox, inbox, sent
 * mail) while the bookkeeping stays (an invoice keeps its amounts); an unknown person is a 404.
 * And the declarations stay complete: every column of a tenant table named like personal data is
 * declared or said not to be.
 */
jest.setTimeout(300_000);
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';

let server: TestServer;
let tenant: TestTenant;
let other: TestTenant;

/** Runs the statements in a transaction: the embedded database's socket keeps those together. */
const sql = <T>(work: (trx: Knex.Transaction) => Promise<T>) =>
  ((server.orm.em.getConnection() as AbstractSqlConnection).getKnex() as Knex).transaction(work);

/** Every row of the tenant, by table, as JSON text. */
async function everything(tenantId: string): Promise<Record<string, string[]>> {
  return sql(async (trx) => {
    const out: Record<string, string[]> = {};
    for (const table of await tenantTables(trx)) {
      const { rows } = (await trx.raw(
        `select row_to_json(t)::text as line from "${table.name}" t where tenant_id = ? order by ${table.key.map((k) => `"${k}"`).join(', ')}`,
        [tenantId],
      )) as { rows: { line: string }[] };
      if (rows.length) out[table.name] = rows.map((r) => r.line);
    }
    return out;
  });
}

const traces = (all: Record<string, string[]>) => {
  const needles = [JANE.email, `${JANE.firstName} ${JANE.lastName}`, JANE.phone].map((n) => n.toLowerCase());
  return Object.entries(all).flatMap(([table, lines]) =>
    lines
      .filter((l) => needles.some((n) => l.toLowerCase().includes(n)))
      .map((l) => `${table}: ${l.slice(0, 200)}`),
  );
};

beforeAll(async () => {
  server = await startServer();
  tenant = await server.tenant('Personal');
  other = await server.tenant('Other');
  await fillTenant(server, tenant);
  await fillTenant(server, other);
});
afterAll(() => server?.close());

it('every column of a tenant table named like personal data is declared, or said not to be; every declaration names a column', async () => {
  const tables = await sql((trx) => tenantTables(trx));
  const columns = new Set(tables.flatMap((t) => t.columns.map((c) => `${t.name}.${c}`)));
  // The tenant's own row, which holds its owner's address.
  for (const c of ['owner', 'name', 'domain']) columns.add(`tenant.${c}`);
  const undeclared = [...columns].filter((tc) => {
    const [table, column] = tc.split('.');
    return (
      LOOKS_PERSONAL.test(column) &&
      !column.endsWith('_id') &&
      !PERSONAL_DATA[tc] &&
      !PERSONAL_DATA[`*.${column}`] &&
      !NOT_PERSONAL[tc] &&
      table !== undefined
    );
  });
  expect(undeclared).toEqual([]);
  const unknown = [...Object.keys(PERSONAL_DATA), ...Object.keys(NOT_PERSONAL)].filter((tc) =>
    tc.startsWith('*.') ? ![...columns].some((c) => c.endsWith(tc.slice(1))) : !columns.has(tc),
  );
  expect(unknown).toEqual([]);
});

it('exports everything held about a lead or booking contact as one document', async () => {
  const document = await exportPerson(server.orm, tenant.tenantId, 'Jane.Doe@Example.test');
  expect(document.person).toEqual({
    email: JANE.email,
    tenantId: tenant.tenantId,
    identifiers: expect.arrayContaining([JANE.email, `${JANE.firstName} ${JANE.lastName}`, JANE.phone]),
  });
  expect(Object.keys(document.about).sort()).toEqual(
    expect.arrayContaining([
      'activity',
      'booking',
      'customer',
      'inbound_email',
      'invoice',
      'lead',
      'sent_mail',
    ]),
  );
  expect(document.about.lead).toEqual([expect.objectContaining({ email: JANE.email, first_name: 'Jane' })]);
  // History and events that mention her: the outbox's lead.created event carries the lead.
  expect(Object.keys(document.mentions)).toEqual(expect.arrayContaining(['outbox_event']));
  // Only this tenant's records.
  expect(JSON.stringify(document)).not.toContain(other.tenantId);
});

it('an unknown person: 404, for the export and for the erasure', async () => {
  for (const run of [exportPerson, erasePerson]) {
    const error = await run(server.orm, tenant.tenantId, 'nobody@nowhere.test').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(404);
  }
});

it('over the API: the super-admin exports and erases; others are refused (403); an unknown person is a 404', async () => {
  const third = await server.tenant('Third');
  await fillTenant(server, third, {
    person: { ...JANE, email: 'sam@example.test', firstName: 'Sam', lastName: 'Smith' },
  });
  const clerk = await third.userWith(['READ_LEADS']);
  expectErrorBody(await clerk.client.get('/personal-data/sam%40example.test'), 403);
  expectErrorBody(await clerk.client.post('/personal-data/sam%40example.test/erase'), 403);
  expectErrorBody(await third.client.get('/personal-data/nobody%40example.test'), 404);
  expectErrorBody(await third.client.post('/personal-data/nobody%40example.test/erase'), 404);
  const unknown = await third.client.graphql(
    'mutation { erasePersonalData(email: "nobody@example.test") { email } }',
  );
  expect(unknown.body.errors?.[0].extensions?.status).toBe(404);

  const exported = await third.client.get('/personal-data/Sam%40Example.test');
  expect(exported.status).toBe(200);
  expect(exported.body.person).toEqual(
    expect.objectContaining({ email: 'sam@example.test', tenantId: third.tenantId }),
  );
  expect(exported.body.about.lead).toEqual([expect.objectContaining({ email: 'sam@example.test' })]);
  // The caller's tenant only: the same address elsewhere is another tenant's.
  expectErrorBody(await tenant.client.get('/personal-data/sam%40example.test'), 404);

  const erased = await third.client.post('/personal-data/sam%40example.test/erase');
  expect(erased.status).toBe(200);
  expect(erased.body).toEqual({
    email: 'sam@example.test',
    replacedBy: expect.stringMatching(/@erased\.invalid$/),
    rows: expect.objectContaining({ lead: 1, booking: 1 }),
  });
  const left = Object.values(await everything(third.tenantId))
    .flat()
    .filter((l) => l.toLowerCase().includes('sam@example.test') || l.includes('Sam Smith'));
  expect(left).toEqual([]);
  expectErrorBody(await third.client.get('/personal-data/sam%40example.test'), 404);
});

it("erases her everywhere in the tenant, keeps the bookkeeping, and leaves other tenants' records alone", async () => {
  const before = await everything(tenant.tenantId);
  expect(traces(before).length).toBeGreaterThan(8);
  const otherBefore = await everything(other.tenantId);
  const invoice = async () =>
    sql(async (trx) => {
      const { rows } = (await trx.raw(
        `select id, invoice_number, status, rows, transactions, currency, invoice_date, client_id, subsidiary_id from invoice where tenant_id = ?`,
        [tenant.tenantId],
      )) as { rows: unknown[] };
      return rows;
    });
  const invoiceBefore = await invoice();

  const erased = await erasePerson(server.orm, tenant.tenantId, JANE.email);
  expect(erased.replacedBy).toMatch(/^erased-[0-9a-f]{8}@erased\.invalid$/);
  expect(Object.keys(erased.rows)).toEqual(
    expect.arrayContaining([
      'lead',
      'booking',
      'activity',
      'inbound_email',
      'sent_mail',
      'invoice',
      'outbox_event',
    ]),
  );

  const after = await everything(tenant.tenantId);
  expect(traces(after)).toEqual([]);
  // Same records, same counts: nothing deleted.
  expect(Object.fromEntries(Object.entries(after).map(([t, l]) => [t, l.length]))).toEqual(
    Object.fromEntries(Object.entries(before).map(([t, l]) => [t, l.length])),
  );
  expect(await invoice()).toEqual(invoiceBefore);
  const lead = after.lead.map((l) => JSON.parse(l)).find((l) => l.email === erased.replacedBy);
  expect(lead).toEqual(
    expect.objectContaining({
      first_name: '[erased]',
      last_name: '[erased]',
      phone: '[erased]',
      company_name: 'Doe & Co',
    }),
  );
  expect(await everything(other.tenantId)).toEqual(otherBefore);

  // Once erased, she is unknown.
  const again = await exportPerson(server.orm, tenant.tenantId, JANE.email).catch((e: unknown) => e);
  expect((again as AppError).status).toBe(404);
});

it("erasing a user who owns the tenant: the user, the tenant's owner and every record they wrote lose the address", async () => {
  const owner = other.adminEmail;
  const ownerRow = async () =>
    sql(
      async (trx) => (await trx.raw('select owner from tenant where id = ?', [other.tenantId])).rows[0].owner,
    );
  expect(await ownerRow()).toBe(owner);
  const document = await exportPerson(server.orm, other.tenantId, owner);
  expect(Object.keys(document.about)).toEqual(
    expect.arrayContaining(['tenant', 'app_user', 'lead', 'invoice']),
  );
  const erased = await erasePerson(server.orm, other.tenantId, owner);
  expect(await ownerRow()).toBe(erased.replacedBy);
  const left = Object.entries(await everything(other.tenantId)).flatMap(([table, lines]) =>
    lines.filter((l) => l.includes(owner)).map((l) => `${table}: ${l.slice(0, 200)}`),
  );
  expect(left).toEqual([]);
});
