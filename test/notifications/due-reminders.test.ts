import { withTenant } from '../../src/db/tenant-transaction';
import { remindDueActivities, remindLeadActions } from '../../src/domain/crm/reminders';
import { remindDueApInvoices } from '../../src/domain/finance/reminders';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { workerDatabaseUrl } from '../support/database';
import { childEnv, cliCommands, randomSecret } from '../support/process';
import type { Client } from '../support/http';

/**
 * Due dates remind the people they concern once: an activity's owner (`dueNotifiedAt`), a lead's
 * owner on its next action (`nextActionNotifiedAt`, again when the due date moves past the last
 * reminder), and the creator of an AP invoice (`dueNotifiedAt`). Data through the API; the
 * reminders run as the job runs them, in a transaction of the tenant.
 */
describe('due-date reminders', () => {
  let server: TestServer;
  let a: TestTenant;
  let b: TestTenant;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Reminders A');
    b = await server.tenant('Reminders B');
  });
  afterAll(() => server.close());

  async function gql<T = any>(
    client: Client,
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<T> {
    const res = await client.graphql<T>(query, variables);
    expect(res.body.errors).toBeUndefined();
    return res.body.data as T;
  }
  const run = <R>(t: TestTenant, work: (em: Parameters<Parameters<typeof withTenant>[2]>[0]) => Promise<R>) =>
    withTenant(server.orm.em, { tenantId: t.tenantId, userId: null, email: 'system' }, work);
  const scoped = async (client: Client, scope: string) =>
    (
      (await client.get('/notifications/me?pageSize=100')).body.content as { scope: string; title: string }[]
    ).filter((n) => n.scope === scope);
  const hour = 3_600_000;

  it('an open activity due by now reminds its owner once; a later or completed one does not', async () => {
    const u = await a.userWith([]);
    const now = new Date();
    const make = async (subject: string, dueDate: Date, completed = false) =>
      (
        await gql(a.client, 'mutation($i: CreateActivityInput!) { createActivity(input: $i) { id } }', {
          i: { subject, type: 'TASK', ownerId: u.userId, dueDate: dueDate.toISOString(), completed },
        })
      ).createActivity.id as string;
    const due = await make('Send the offer', new Date(now.getTime() - hour));
    await make('Later', new Date(now.getTime() + hour));
    await make('Done already', new Date(now.getTime() - hour), true);
    // Another tenant's due activity is no business of this run.
    const other = await b.userWith([]);
    await gql(b.client, 'mutation($i: CreateActivityInput!) { createActivity(input: $i) { id } }', {
      i: {
        subject: 'B',
        type: 'TASK',
        ownerId: other.userId,
        dueDate: new Date(now.getTime() - hour).toISOString(),
      },
    });

    expect(await run(a, (em) => remindDueActivities(em, a.tenantId, now))).toBe(1);
    expect(await run(a, (em) => remindDueActivities(em, a.tenantId, now))).toBe(0);
    const got = await scoped(u.client, 'activity.due');
    expect(got.map((n) => n.title)).toEqual(['Send the offer is due']);
    const stamped = (await a.client.get(`/crm/activities/dynamic-search?filters=id:eq:${due}`)).body
      .content[0];
    expect(stamped.dueNotifiedAt).toBe(now.toISOString());
    expect(await scoped(other.client, 'activity.due')).toHaveLength(0);
  });

  it("a lead's next action reminds its owner once per due date", async () => {
    const u = await a.userWith([]);
    const now = new Date();
    const lead = (
      await gql(a.client, 'mutation($i: LeadInput!) { createLead(input: $i) { id } }', {
        i: {
          firstName: 'Nia',
          ownerId: u.userId,
          nextAction: 'Call',
          nextActionDueDate: new Date(now.getTime() - hour),
        },
      })
    ).createLead.id as string;
    await gql(a.client, 'mutation($i: LeadInput!) { createLead(input: $i) { id } }', {
      i: {
        firstName: 'Won',
        ownerId: u.userId,
        status: 'WON',
        nextActionDueDate: new Date(now.getTime() - hour),
      },
    });
    expect(await run(a, (em) => remindLeadActions(em, a.tenantId, now))).toBe(1);
    expect(await run(a, (em) => remindLeadActions(em, a.tenantId, now))).toBe(0);
    // A new due date past the reminder is reminded again, once it comes.
    const later = new Date(now.getTime() + 2 * hour);
    await gql(a.client, 'mutation($id: ID!, $i: LeadInput!) { updateLead(id: $id, input: $i) { id } }', {
      id: lead,
      i: { nextActionDueDate: later.toISOString() },
    });
    expect(await run(a, (em) => remindLeadActions(em, a.tenantId, now))).toBe(0);
    expect(await run(a, (em) => remindLeadActions(em, a.tenantId, new Date(later.getTime() + 1000)))).toBe(1);
    expect((await scoped(u.client, 'activity.due')).map((n) => n.title)).toEqual([
      'Next action on lead Nia is due',
      'Next action on lead Nia is due',
    ]);
  });

  it('an unpaid AP invoice due by now reminds its creator once; a cancelled one does not', async () => {
    const u = await a.userWith(['CREATE_AP_INVOICES', 'READ_AP_INVOICES']);
    const now = new Date();
    // Dated before the due dates, so that a run just after midnight is not refused a due date on the day before.
    const invoiceDate = new Date(now.getTime() - 2 * hour).toISOString();
    const create = (i: object) =>
      gql(u.client, 'mutation($i: ApInvoiceInput!) { createApInvoice(input: $i) { id } }', {
        i: { invoiceDate, ...i },
      });
    await create({ invoiceNumber: 'AP-1', dueDate: new Date(now.getTime() - hour).toISOString() });
    await create({
      invoiceNumber: 'AP-2',
      dueDate: new Date(now.getTime() - hour).toISOString(),
      status: 'CANCELLED',
    });
    await create({ invoiceNumber: 'AP-3', dueDate: new Date(now.getTime() + hour).toISOString() });
    expect(await run(a, (em) => remindDueApInvoices(em, a.tenantId, now))).toBe(1);
    expect(await run(a, (em) => remindDueApInvoices(em, a.tenantId, now))).toBe(0);
    expect((await scoped(u.client, 'ap-invoice.due')).map((n) => n.title)).toEqual([
      'Supplier invoice AP-1 is due',
    ]);
  });

  it('run as scheduled jobs: bms jobs:run crm.due-reminders and finance.ap-invoices-due', async () => {
    const env = childEnv({ DATABASE_URL: await workerDatabaseUrl(), JWT_SECRET: randomSecret() });
    const { ok } = cliCommands(() => env);
    const u = await a.userWith(['CREATE_AP_INVOICES', 'READ_AP_INVOICES']);
    const now = new Date(Date.now() + 10 * hour);
    await gql(a.client, 'mutation($i: CreateActivityInput!) { createActivity(input: $i) { id } }', {
      i: {
        subject: 'From the job',
        type: 'TASK',
        ownerId: u.userId,
        dueDate: new Date(now.getTime() - hour),
      },
    });
    await gql(u.client, 'mutation($i: ApInvoiceInput!) { createApInvoice(input: $i) { id } }', {
      i: { invoiceNumber: 'AP-JOB', dueDate: new Date(now.getTime() - hour).toISOString() },
    });
    const run = async (job: string) =>
      (await ok('jobs:run', job, '--tenant', a.tenantId, '--now', now.toISOString())) as {
        job: string;
        tenantId: string;
        outcome: string;
        items: number;
      }[];
    const crm = await run('crm.due-reminders');
    expect(crm).toEqual([
      expect.objectContaining({ job: 'crm.due-reminders', tenantId: a.tenantId, outcome: 'ok' }),
    ]);
    expect(crm[0].items).toBeGreaterThanOrEqual(1);
    const finance = await run('finance.ap-invoices-due');
    expect(finance).toEqual([
      expect.objectContaining({ job: 'finance.ap-invoices-due', tenantId: a.tenantId, outcome: 'ok' }),
    ]);
    expect(finance[0].items).toBeGreaterThanOrEqual(1);
    expect((await scoped(u.client, 'activity.due')).map((n) => n.title)).toEqual(['From the job is due']);
    expect((await scoped(u.client, 'ap-invoice.due')).map((n) => n.title)).toEqual([
      'Supplier invoice AP-JOB is due',
    ]);
    // Run again: everything is reminded already.
    expect((await run('crm.due-reminders'))[0].items).toBe(0);
  });
});
