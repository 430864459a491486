import { startServer, type TestServer, type TestTenant } from '../support/server';
import { createCustomer, createOpportunity } from '../finance/helpers';
import { addStock, createProduct, createSite } from '../inventory/helpers';

/** The outbox rows of one record, oldest first, read as the database's own user. */
interface OutboxRow {
  type: string;
  resource_type: string;
  resource_id: string;
  data: any;
  actor: any;
}

async function eventsOf(server: TestServer, tenantId: string, resourceId: string): Promise<OutboxRow[]> {
  return server.orm.em.getConnection().execute(
    `select type, resource_type, resource_id, data, actor, occurred_at from outbox_event
       where tenant_id = ? and resource_id = ? order by occurred_at, type`,
    [tenantId, resourceId],
    'all',
  ) as Promise<OutboxRow[]>;
}

describe('the transactional outbox', () => {
  let server: TestServer;
  let a: TestTenant;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Outbox');
  });
  afterAll(() => server.close());

  it('writes one event per committed change: created, status_changed, updated, deleted', async () => {
    const created = await a.client.post('/hr/features', { name: 'Login', status: 'READY' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const gql = async (query: string) => {
      const res = await a.client.graphql(query, { id });
      expect(res.body.errors).toBeUndefined();
    };
    await gql(`mutation($id: ID!) { updateFeature(id: $id, input: { status: IN_PROGRESS }) { id } }`);
    await gql(`mutation($id: ID!) { updateFeature(id: $id, input: { name: "Login page" }) { id } }`);
    await gql(`mutation($id: ID!) { deleteFeature(id: $id) }`);

    const events = await eventsOf(server, a.tenantId, id);
    expect(events.map((e) => e.type)).toEqual([
      'feature.created',
      'feature.status_changed',
      'feature.updated',
      'feature.deleted',
    ]);
    expect(events.every((e) => e.resource_type === 'feature')).toBe(true);
    expect(events[0].data).toEqual(expect.objectContaining({ id, name: 'Login', status: 'READY' }));
    expect(events[0].data).not.toHaveProperty('version');
    expect(events[1].data).toEqual(expect.objectContaining({ status: 'IN_PROGRESS' }));
    expect(events[2].data).toEqual(expect.objectContaining({ name: 'Login page' }));
    expect(events[3].data).toEqual(expect.objectContaining({ id, name: 'Login page' }));
    expect(events[0].actor).toEqual({ userId: a.adminId, email: a.adminEmail });
  });

  it('adds the domain names: lead status, invoice numbering, stock moves', async () => {
    const types = async (id: string) => (await eventsOf(server, a.tenantId, id)).map((e) => e.type);
    const lead = await a.client.graphql(
      'mutation { createLead(input: { companyName: "Acme", status: NEW }) { id } }',
    );
    expect(lead.body.errors).toBeUndefined();
    const leadId = lead.body.data.createLead.id as string;
    const qualified = await a.client.graphql(
      'mutation ($id: ID!) { updateLead(id: $id, input: { status: QUALIFIED }) { id } }',
      { id: leadId },
    );
    expect(qualified.body.errors).toBeUndefined();
    expect(await types(leadId)).toEqual(
      expect.arrayContaining(['lead.created', 'lead.status_changed', 'lead.qualified']),
    );
    expect((await types(leadId)).filter((t) => t === 'lead.qualified')).toHaveLength(1);

    const customer = await createCustomer(a.client, 'Domain customer');
    const opportunity = await createOpportunity(a.client, 'Domain deal', customer);
    const invoice = await a.client.post('/invoices', {
      invoiceDate: '2026-04-01T00:00:00.000Z',
      opportunityId: opportunity,
      rows: [{ quantity: 1, unitPrice: 100 }],
    });
    expect(invoice.status).toBe(201);
    expect(await types(invoice.body.id)).toEqual(['invoice.created', 'invoice.numbered']);

    const site = await createSite(a.client, 'Domain site');
    const product = await createProduct(a.client, { name: 'Bolt' });
    const stock = await addStock(a.client, site, [{ productId: product, quantity: 5, price: 1 }]);
    expect(stock.status).toBe(201);
    const inventoryId = stock.body[0].id as string;
    const again = await addStock(a.client, site, [{ productId: product, quantity: 2, price: 1 }]);
    expect(again.status).toBe(201);
    expect(await types(inventoryId)).toEqual([
      'stock_inventory.created',
      'stock_inventory.quantity_changed',
      'stock_inventory.updated',
    ]);
  });

  it('writes no event for a change that was rolled back', async () => {
    // Both mutations run in one request transaction; the second fails, so the first is undone.
    const res = await a.client.graphql(
      `mutation {
        ok: createTaxPercentage(input: { percentage: 7 }) { id }
        bad: updateTaxPercentage(id: "00000000-0000-4000-8000-000000000000", input: { percentage: 8 }) { id }
      }`,
    );
    expect(res.body.errors?.length).toBeGreaterThan(0);
    expect(res.body.data).toBeNull();
    const all = await server.orm.em
      .getConnection()
      .execute<{ n: string }[]>(
        `select count(*)::int as n from outbox_event where tenant_id = ? and type like 'tax_percentage.%'`,
        [a.tenantId],
      );
    expect(Number(all[0].n)).toBe(0);
    const list = await a.client.get('/tax-percentages/find-all');
    expect(list.body).toEqual([]);

    // The same mutation alone commits, and its event is there.
    const good = await a.client.graphql(`mutation { createTaxPercentage(input: { percentage: 7 }) { id } }`);
    const id = good.body.data!.createTaxPercentage.id as string;
    expect((await eventsOf(server, a.tenantId, id)).map((e) => e.type)).toEqual(['tax_percentage.created']);
  });
});
