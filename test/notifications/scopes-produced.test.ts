import { createLogger } from '../../src/logger';
import { NOTIFICATION_SCOPES } from '../../src/domain/notifications/scopes';
import { eventSettings, useEventSettings } from '../../src/events/settings';
import { startEventWorker, type EventWorker } from '../../src/events/worker';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import type { Client } from '../support/http';
import { startSmtp } from '../support/smtp';

/**
 * Every scope of the catalog is produced by the change that names it, to the users it concerns:
 * one case per scope, generated from NOTIFICATION_SCOPES, so a scope added to the catalog without
 * an entry in TRIGGERS (and a producer to make the entry pass) fails here. Each trigger builds its
 * data through the API as the tenant's admin (or as the recipient where the recipient's own record
 * is what changes) and answers who must receive the notification and who must not.
 */

type User = Awaited<ReturnType<TestTenant['userWith']>>;

interface Expectation {
  /** Who must find exactly one notification of the scope in their feed. */
  recipient: User;
  /** Who made the change and must not hear of it (a change someone makes tells others). */
  notTold?: Client;
}

describe('every notification scope is produced', () => {
  let server: TestServer;
  let a: TestTenant;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let worker: EventWorker;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Scopes');
    smtp = await startSmtp();
    const settings = {
      ...eventSettings({}),
      smtpUrl: smtp.url,
      mailFrom: 'notifications@service.test',
      pollIntervalMs: 3_600_000,
    };
    useEventSettings(settings);
    // Driven by runOnce only.
    worker = startEventWorker(server.orm, createLogger('silent'), settings);
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await smtp?.close();
    await server?.close();
  });

  async function gql<T = any>(
    client: Client,
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<T> {
    const res = await client.graphql<T>(query, variables);
    expect(res.body.errors).toBeUndefined();
    return res.body.data as T;
  }
  const admin = () => a.client;

  /** A mutation `name(input: $input)` answering `id`. */
  const create = async (client: Client, name: string, inputType: string, input: object): Promise<string> =>
    (await gql(client, `mutation($input: ${inputType}!) { ${name}(input: $input) { id } }`, { input }))[name]
      .id;
  const update = async (client: Client, name: string, inputType: string, id: string, input: object) =>
    gql(client, `mutation($id: ID!, $input: ${inputType}!) { ${name}(id: $id, input: $input) { id } }`, {
      id,
      input,
    });

  /** An employee record for `user`: HR names people by employee. */
  const employeeOf = (user: User) =>
    create(admin(), 'createEmployee', 'EmployeeInput', {
      userId: user.userId,
      email: user.email,
      firstName: 'E',
    });

  const productAndSite = async () => ({
    productId: await create(admin(), 'createProduct', 'ProductInput', { name: 'Flour' }),
    siteId: await create(admin(), 'createStockSite', 'StockSiteInput', { name: 'Main' }),
  });

  /** The scope's notifications in the user's own feed. */
  async function feed(client: Client, scope: string) {
    const res = await client.get('/notifications/me?pageSize=100');
    expect(res.status).toBe(200);
    return (
      res.body.content as { scope: string; title: string; actionUrl: string; category: string }[]
    ).filter((n) => n.scope === scope);
  }

  const plain = () => a.userWith([]);

  /** How each scope is made to happen, through the API; one entry per scope of the catalog. */
  const TRIGGERS: Record<string, () => Promise<Expectation>> = {
    'invoice.overdue': async () => {
      const u = await a.userWith(['CREATE_INVOICES', 'UPDATE_INVOICES', 'READ_INVOICES']);
      const id = await create(u.client, 'createInvoice', 'InvoiceInput', { status: 'SENT' });
      await update(admin(), 'updateInvoice', 'InvoiceInput', id, { status: 'OVERDUE' });
      return { recipient: u };
    },
    'invoice.paid': async () => {
      const u = await a.userWith(['CREATE_INVOICES', 'UPDATE_INVOICES', 'READ_INVOICES']);
      const id = await create(u.client, 'createInvoice', 'InvoiceInput', {
        status: 'SENT',
        rows: [{ quantity: 1, unitPrice: 50, taxRate: 0 }],
      });
      await update(u.client, 'updateInvoice', 'InvoiceInput', id, { transactions: [{ amount: 50 }] });
      return { recipient: u };
    },
    'ap-invoice.due': async () => {
      const u = await a.userWith(['CREATE_AP_INVOICES', 'UPDATE_AP_INVOICES', 'READ_AP_INVOICES']);
      const id = await create(u.client, 'createApInvoice', 'ApInvoiceInput', { invoiceNumber: 'S-1' });
      await update(admin(), 'updateApInvoice', 'ApInvoiceInput', id, {
        dueNotifiedAt: new Date().toISOString(),
      });
      return { recipient: u };
    },
    'stock.low': async () => {
      const u = await a.userWith(['UPDATE_INVENTORY', 'READ_INVENTORY']);
      // A new inventory holds nothing: OUT_OF_STOCK.
      await create(admin(), 'createStockInventory', 'CreateStockInventoryInput', await productAndSite());
      return { recipient: u };
    },
    'stock-transfer.status': async () => {
      const u = await a.userWith(['CREATE_STOCK_TRANSFERS', 'READ_STOCK_TRANSFERS']);
      const id = await create(u.client, 'createStockTransfer', 'StockTransferInput', { note: 'to the shop' });
      await update(admin(), 'updateStockTransfer', 'StockTransferInput', id, { status: 'REQUESTED' });
      return { recipient: u, notTold: admin() };
    },
    'waste.recorded': async () => {
      const u = await a.userWith(['UPDATE_INVENTORY', 'READ_INVENTORY']);
      const { productId } = await productAndSite();
      await create(admin(), 'createWasteRecord', 'CreateWasteRecordInput', { productId, quantity: 2 });
      return { recipient: u, notTold: admin() };
    },
    'lead.assigned': async () => {
      const u = await plain();
      await create(admin(), 'createLead', 'LeadInput', { firstName: 'Ada', ownerId: u.userId });
      return { recipient: u, notTold: admin() };
    },
    'lead.status': async () => {
      const u = await plain();
      const id = await create(admin(), 'createLead', 'LeadInput', { firstName: 'Bo' });
      await update(admin(), 'updateLead', 'LeadInput', id, { ownerId: u.userId });
      await update(admin(), 'updateLead', 'LeadInput', id, { status: 'CONTACTED' });
      return { recipient: u, notTold: admin() };
    },
    'activity.due': async () => {
      const u = await plain();
      const id = await create(admin(), 'createActivity', 'CreateActivityInput', {
        subject: 'Call back',
        type: 'CALL',
        ownerId: u.userId,
      });
      await update(admin(), 'updateActivity', 'UpdateActivityInput', id, {
        dueNotifiedAt: new Date().toISOString(),
      });
      return { recipient: u };
    },
    'booking.created': async () => {
      const u = await plain();
      await create(admin(), 'createBooking', 'CreateBookingInput', {
        startTime: '2027-01-05T10:00:00.000Z',
        assignedEmployeeId: await employeeOf(u),
        firstName: 'Visitor',
      });
      return { recipient: u, notTold: admin() };
    },
    'inbox.received': async () => {
      const u = await a.userWith(['READ_INBOX']);
      await create(admin(), 'ingestInboundEmail', 'IngestInboundEmailInput', {
        fromEmail: 'customer@example.test',
        subject: 'A question',
        internetMessageId: `<${Math.random()}@example.test>`,
      });
      return { recipient: u, notTold: admin() };
    },
    'project.assigned': async () => {
      const u = await plain();
      await create(admin(), 'createHrProject', 'CreateHrProjectInput', {
        name: 'Rollout',
        teamMemberIds: [await employeeOf(u)],
      });
      return { recipient: u, notTold: admin() };
    },
    'epic.status': async () => {
      const u = await plain();
      const id = await create(admin(), 'createEpic', 'CreateEpicInput', {
        name: 'Q1',
        ownerId: await employeeOf(u),
      });
      await update(admin(), 'updateEpic', 'UpdateEpicInput', id, { status: 'IN_PROGRESS' });
      return { recipient: u, notTold: admin() };
    },
    'feature.assigned': async () => {
      const u = await plain();
      const epicId = await create(admin(), 'createEpic', 'CreateEpicInput', {
        name: 'Q2',
        ownerId: await employeeOf(u),
      });
      await create(admin(), 'createFeature', 'CreateFeatureInput', { name: 'Search', epicId });
      return { recipient: u, notTold: admin() };
    },
    'team.member-added': async () => {
      const u = await plain();
      await create(admin(), 'createTeam', 'CreateTeamInput', {
        name: 'Ops',
        memberIds: [await employeeOf(u)],
      });
      return { recipient: u, notTold: admin() };
    },
    'access.changed': async () => {
      const u = await plain();
      await gql(
        admin(),
        'mutation($e: String!) { setUserFullAccess(email: $e, input: { hasFullAccess: true }) { email } }',
        { e: u.email },
      );
      return { recipient: u, notTold: admin() };
    },
    'system.announcement': async () => {
      const u = await plain();
      const res = await admin().post('/notifications/announcements', {
        title: 'Maintenance on Sunday',
        actionUrl: '/status',
      });
      expect(res.status).toBe(200);
      expect(res.body.recipients).toBeGreaterThanOrEqual(1);
      return { recipient: u, notTold: admin() };
    },
  };

  describe.each(NOTIFICATION_SCOPES.map((s) => [s.scope, s.category] as const))('%s', (scope, category) => {
    it(`reaches the users it concerns, in category ${category}`, async () => {
      const trigger = TRIGGERS[scope];
      if (!trigger) throw new Error(`no trigger for scope ${scope}: add a producer and an entry in TRIGGERS`);
      const before = (await feed(admin(), scope)).length;
      const { recipient, notTold } = await trigger();
      const got = await feed(recipient.client, scope);
      expect(got).toHaveLength(1);
      expect(got[0]).toMatchObject({
        category,
        title: expect.stringMatching(/\S/),
        actionUrl: expect.stringMatching(/^\//),
      });
      if (notTold) expect(await feed(notTold, scope)).toHaveLength(before);
    });
  });

  it('a user who switched the scope off gets nothing in the feed, and no e-mail', async () => {
    const u = await plain();
    const put = await u.client.put('/notifications/settings/me', {
      disabledScopes: ['lead.assigned'],
      emailNotificationsEnabled: true,
    });
    expect(put.status).toBe(200);
    await create(admin(), 'createLead', 'LeadInput', { firstName: 'Cy', ownerId: u.userId });
    expect(await feed(u.client, 'lead.assigned')).toHaveLength(0);
    // Stored, held back: the administrators' view shows it undelivered.
    const held = await gql(
      admin(),
      'query($u: ID) { userNotifications(userId: $u) { content { scope delivered } } }',
      {
        u: u.userId,
      },
    );
    expect(held.userNotifications.content).toEqual([{ scope: 'lead.assigned', delivered: false }]);
    await worker.runOnce();
    await worker.runOnce();
    expect(smtp.to(u.email)).toHaveLength(0);
  });

  it('a user with e-mail on receives the produced notification at the SMTP server', async () => {
    const u = await plain();
    expect(
      (await u.client.put('/notifications/settings/me', { emailNotificationsEnabled: true })).status,
    ).toBe(200);
    await create(admin(), 'createLead', 'LeadInput', {
      firstName: 'Dee',
      lastName: 'Mail',
      ownerId: u.userId,
    });
    await worker.runOnce();
    await worker.runOnce();
    const mails = smtp.to(u.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].parsed.subject).toBe('Lead Dee Mail was assigned to you');
  });

  it('a change produces its notification once: later changes that do not make it happen add none', async () => {
    const u = await plain();
    const id = await create(admin(), 'createLead', 'LeadInput', { firstName: 'Eve', ownerId: u.userId });
    await update(admin(), 'updateLead', 'LeadInput', id, { note: 'unrelated change' });
    await update(admin(), 'updateLead', 'LeadInput', id, { ownerId: u.userId, status: 'NEW' });
    expect(await feed(u.client, 'lead.assigned')).toHaveLength(1);
    expect(await feed(u.client, 'lead.status')).toHaveLength(0);
  });
});
