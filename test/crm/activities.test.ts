import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody } from '../support/http';
import {
  audited,
  createCustomer,
  createOpportunity,
  eventLines,
  gql,
  ISO,
  statementsDuring,
  UNKNOWN_ID,
} from './support';

const BASE = '/crm/activities';

const UPDATE = `mutation($id: ID!, $input: UpdateActivityInput!) {
  updateActivity(id: $id, input: $input) { completed isCompleted completedAt events { type description } }
}`;

describe('Activities', () => {
  let server: TestServer;
  let a: TestTenant;
  let b: TestTenant;
  let customerId: string;
  let opportunityId: string;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Activities A');
    b = await server.tenant('Activities B');
    customerId = await createCustomer(a.client, {
      name: 'Acme',
      email: 'info@acme.test',
      phone: '+31 20 123',
    });
    opportunityId = await createOpportunity(a.client, { name: 'Big deal', value: 12500.5, customerId });
  });
  afterAll(() => server.close());

  const create = async (t: TestTenant, body: object) => {
    const res = await t.client.post(BASE, body);
    expect(res.status).toBe(201);
    return res.body;
  };

  it('POST creates with 201, Location, every documented field and the derived customer, opportunity and owner', async () => {
    const res = await a.client.post(BASE, {
      subject: 'Intro call',
      type: 'CALL',
      priority: 'HIGH',
      attendees: ['jo@acme.test', 'sam@acme.test'],
      customerId,
      opportunityId,
      contactName: 'Jo',
      contactEmail: 'jo@acme.test',
      scheduledAt: '2026-12-01T09:30:00Z',
      durationMinutes: 30,
      tenantId: b.tenantId,
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/api/v1${BASE}/find/${res.body.id}`);
    expect(res.body).toEqual({
      ...audited(a),
      subject: 'Intro call',
      description: null,
      location: null,
      outcome: null,
      contactEmail: 'jo@acme.test',
      contactName: 'Jo',
      contactPhone: null,
      customerId,
      opportunityId,
      ownerId: a.adminId,
      type: 'CALL',
      priority: 'HIGH',
      attendees: ['jo@acme.test', 'sam@acme.test'],
      scheduledAt: '2026-12-01T09:30:00.000Z',
      dueDate: null,
      completedAt: null,
      dueNotifiedAt: null,
      durationMinutes: 30,
      completed: false,
      isCompleted: false,
      customer: { email: 'info@acme.test', id: customerId, name: 'Acme', phone: '+31 20 123' },
      opportunity: { id: opportunityId, name: 'Big deal', value: 12500.5 },
      owner: { displayName: a.adminEmail, id: a.adminId, username: a.adminEmail },
    });
    expect(eventLines(res.body)).toEqual([expect.stringMatching(/^CREATE: /)]);
    expect(res.body.events[0].authorId).toBe(a.adminId);
    expect((await a.client.get(`${BASE}/find/${res.body.id}`)).body).toEqual(res.body);
  });

  it('the owner shows the user name; an explicit owner wins over the creator', async () => {
    const user = await a.userWith(['CREATE_ACTIVITIES']);
    // No operation of this domain names users; the name is set directly, as an admin tool would.
    await server.orm.em
      .getConnection()
      .execute(`update app_user set first_name = 'Ada', last_name = 'Lovelace' where id = ?`, [user.userId]);
    const own = (await user.client.post(BASE, { subject: 'Mine', type: 'NOTE' })).body;
    expect(own.owner).toEqual({ displayName: 'Ada Lovelace', id: user.userId, username: user.email });
    const assigned = await create(a, { subject: 'Yours', type: 'TASK', ownerId: user.userId });
    expect(assigned.owner.id).toBe(user.userId);
    const none = await create(a, { subject: 'Nobody', type: 'TASK', ownerId: null });
    expect(none).toMatchObject({ ownerId: null, owner: null, customer: null, opportunity: null });
  });

  it('POST validates the body: 400 naming the field, 404 for records that do not exist', async () => {
    const cases: [object, string][] = [
      [{ type: 'CALL' }, 'subject'],
      [{ subject: '', type: 'CALL' }, 'subject'],
      [{ subject: 'x' }, 'type'],
      [{ subject: 'x', type: 'FAX' }, 'type'],
      [{ subject: 'x', type: 'CALL', priority: 'SOMEDAY' }, 'priority'],
      [{ subject: 'x', type: 'CALL', completed: true, isCompleted: false }, 'isCompleted'],
      [{ subject: 'x', type: 'CALL', customerId: 'acme' }, 'customerId'],
      [{ subject: 'x', type: 'CALL', contactEmail: 'not-an-email' }, 'contactEmail'],
      [{ subject: 'x', type: 'CALL', durationMinutes: -5 }, 'durationMinutes'],
      [{ subject: 'x', type: 'CALL', scheduledAt: 'tomorrow' }, 'scheduledAt'],
      [{ subject: 'x', type: 'CALL', attendees: [42] }, 'attendees'],
    ];
    for (const [body, field] of cases) {
      const res = await a.client.post(BASE, body);
      expectErrorBody(res, 400);
      expect(res.body.detail).toContain(field);
    }
    for (const field of ['customerId', 'opportunityId', 'ownerId']) {
      const res = await a.client.post(BASE, { subject: 'x', type: 'CALL', [field]: UNKNOWN_ID });
      expectErrorBody(res, 404);
      expect(res.body.detail).toContain(field);
    }
    const foreign = await createCustomer(b.client, { name: 'Elsewhere' });
    expectErrorBody(await a.client.post(BASE, { subject: 'x', type: 'CALL', customerId: foreign }), 404);
  });

  it('completing stamps completedAt unless given; reopening clears it; either boolean name works', async () => {
    const done = await create(a, { subject: 'Done already', type: 'TASK', isCompleted: true });
    expect(done).toMatchObject({
      completed: true,
      isCompleted: true,
      completedAt: expect.stringMatching(ISO),
    });
    const given = await create(a, {
      subject: 'Done then',
      type: 'TASK',
      completed: true,
      completedAt: '2026-01-02T03:04:05.000Z',
    });
    expect(given.completedAt).toBe('2026-01-02T03:04:05.000Z');

    const open = await create(a, { subject: 'To do', type: 'TASK' });
    const completed = await gql(a.client, UPDATE, { id: open.id, input: { isCompleted: true } });
    expect(completed.updateActivity).toMatchObject({
      completed: true,
      isCompleted: true,
      completedAt: expect.stringMatching(ISO),
    });
    expect(completed.updateActivity.events.map((e: any) => e.type)).toEqual(['CREATE', 'UPDATE']);
    expect(completed.updateActivity.events[1].description).toMatch(/completed/);
    const reopened = await gql(a.client, UPDATE, { id: open.id, input: { completed: false } });
    expect(reopened.updateActivity).toMatchObject({
      completed: false,
      isCompleted: false,
      completedAt: null,
    });
    const res = await a.client.graphql(UPDATE, {
      id: open.id,
      input: { completed: true, isCompleted: false },
    });
    expect(res.body.errors?.[0].extensions?.status).toBe(400);
  });

  it('by-customer, by-opportunity, by-owner, by-type and completed list the matching activities, oldest first', async () => {
    const t = await server.tenant('Activity lists');
    const cust = await createCustomer(t.client, { name: 'Lister' });
    const opp = await createOpportunity(t.client, { name: 'Listed deal' });
    const owner = await t.userWith(['READ_ACTIVITIES']);
    const one = (await t.client.post(BASE, { subject: 'One', type: 'CALL', customerId: cust })).body;
    const two = (
      await t.client.post(BASE, {
        subject: 'Two',
        type: 'MEETING',
        customerId: cust,
        opportunityId: opp,
        ownerId: owner.userId,
        completed: true,
      })
    ).body;
    const three = (await t.client.post(BASE, { subject: 'Three', type: 'CALL', opportunityId: opp })).body;

    const ids = async (path: string) => {
      const res = await t.client.get(`${BASE}${path}`);
      expect(res.status).toBe(200);
      return res.body.map((x: any) => x.id);
    };
    expect(await ids(`/by-customer/${cust}`)).toEqual([one.id, two.id]);
    expect(await ids(`/by-opportunity/${opp}`)).toEqual([two.id, three.id]);
    expect(await ids(`/by-owner/${owner.userId}`)).toEqual([two.id]);
    expect(await ids(`/by-owner/${t.adminId}`)).toEqual([one.id, three.id]);
    expect(await ids('/by-type/CALL')).toEqual([one.id, three.id]);
    expect(await ids('/by-type/NOTE')).toEqual([]);
    expect(await ids('/completed')).toEqual([two.id]);
    expect(await ids(`/by-customer/${UNKNOWN_ID}`)).toEqual([]);
    expect(await ids('/by-customer/not-an-id')).toEqual([]);

    const full = await t.client.get(`${BASE}/by-customer/${cust}`);
    expect(full.body[1]).toMatchObject({
      customer: { id: cust, name: 'Lister', email: null, phone: null },
      opportunity: { id: opp, name: 'Listed deal', value: null },
      owner: { id: owner.userId, username: owner.email },
    });

    const bad = await t.client.get(`${BASE}/by-type/FAX`);
    expectErrorBody(bad, 400);
    expect(bad.body.detail).toContain('CALL');
  });

  it('dynamic search (GET and POST), CSV export and delete-list', async () => {
    const t = await server.tenant('Activity search');
    const call = (await t.client.post(BASE, { subject: 'Call Bob', type: 'CALL', priority: 'LOW' })).body;
    const mail = (
      await t.client.post(BASE, { subject: 'Mail Bob', type: 'EMAIL', priority: 'URGENT', completed: true })
    ).body;
    await t.client.post(BASE, { subject: 'Meet Alice', type: 'MEETING' });

    const get = await t.client.get(
      `${BASE}/dynamic-search?search=bob&filters=priority:in:LOW|URGENT&sort=subject,desc`,
    );
    expect(get.status).toBe(200);
    expect(get.body).toMatchObject({ totalElements: 2, number: 0, size: 20, sort: { sorted: true } });
    expect(get.body.content.map((x: any) => x.id)).toEqual([mail.id, call.id]);
    expect(get.body.content[0]).toHaveProperty('owner.id', t.adminId);

    const post = await t.client.post(`${BASE}/dynamic-search`, {
      filters: { completed: true, type: ['EMAIL', 'CALL'] },
      page: 0,
      size: 5,
    });
    expect(post.status).toBe(200);
    expect(post.body.content.map((x: any) => x.id)).toEqual([mail.id]);
    expectErrorBody(await t.client.post(`${BASE}/dynamic-search`, { filters: { owner: 'x' } }), 400);
    expectErrorBody(await t.client.get(`${BASE}/dynamic-search?size=1001`), 400);

    const csv = await t.client.get(`${BASE}/csv-export?sort=subject,asc`);
    expect(csv.status).toBe(200);
    const lines = (csv.body as string).split('\r\n').filter((l) => l.length > 0);
    expect(lines).toHaveLength(4);
    expect(lines[0].split(',')).toEqual(
      expect.arrayContaining(['subject', 'type', 'completed', 'isCompleted', 'attendees', 'ownerId']),
    );
    expect(lines[0].split(',')).not.toContain('owner.displayName');

    expect((await t.client.delete(`${BASE}/delete-list?ids=${call.id}&ids=${mail.id}`)).status).toBe(204);
    expect((await t.client.get(`${BASE}/dynamic-search`)).body.totalElements).toBe(1);
    expectErrorBody(await t.client.get(`${BASE}/find/${call.id}`), 404);
  });

  it('the derived fields of a page cost one statement per related kind, whatever the page size', async () => {
    const t = await server.tenant('Activity batching');
    for (let i = 0; i < 12; i++) {
      const cust = await createCustomer(t.client, { name: `Customer ${i}` });
      const opp = await createOpportunity(t.client, { name: `Deal ${i}`, value: i });
      const owner = await t.userWith([]);
      await t.client.post(BASE, {
        subject: `A${i}`,
        type: 'CALL',
        customerId: cust,
        opportunityId: opp,
        ownerId: owner.userId,
      });
    }
    let page: any;
    const sql = await statementsDuring(async () => {
      page = await t.client.get(`${BASE}/dynamic-search?size=50&sort=subject,asc`);
    });
    expect(page.status).toBe(200);
    expect(page.body.content).toHaveLength(12);
    expect(new Set(page.body.content.map((x: any) => x.customer.name)).size).toBe(12);
    expect(new Set(page.body.content.map((x: any) => x.owner.id)).size).toBe(12);
    const from = (table: string) => sql.filter((l) => new RegExp(`from "${table}"`).test(l)).length;
    expect(from('customer')).toBe(1);
    expect(from('opportunity')).toBe(1);
    expect(from('app_user')).toBeLessThanOrEqual(2); // the caller (authentication) and the owners
  });

  it('permissions: READ for lists, CREATE for POST, DELETE for delete-list', async () => {
    const reader = await a.userWith(['READ_ACTIVITIES']);
    const other = await a.userWith(['READ_LEADS']);
    expect((await reader.client.get(`${BASE}/completed`)).status).toBe(200);
    expectErrorBody(await reader.client.post(BASE, { subject: 'x', type: 'CALL' }), 403);
    expectErrorBody(await reader.client.delete(`${BASE}/delete-list?ids=${UNKNOWN_ID}`), 403);
    for (const path of [
      `/by-customer/${customerId}`,
      `/by-opportunity/${opportunityId}`,
      `/by-owner/${a.adminId}`,
      '/by-type/CALL',
      '/completed',
      '/dynamic-search',
      '/csv-export',
    ])
      expectErrorBody(await other.client.get(`${BASE}${path}`), 403);
  });

  it('tenant isolation: another tenant can neither read, list, search, export nor delete', async () => {
    const x = await create(a, { subject: 'Secret call', type: 'CALL', customerId, completed: true });
    expectErrorBody(await b.client.get(`${BASE}/find/${x.id}`), 404);
    expect((await b.client.get(`${BASE}/by-customer/${customerId}`)).body).toEqual([]);
    expect((await b.client.get(`${BASE}/by-owner/${a.adminId}`)).body).toEqual([]);
    expect((await b.client.get(`${BASE}/by-type/CALL`)).body.some((y: any) => y.id === x.id)).toBe(false);
    expect((await b.client.get(`${BASE}/completed`)).body.some((y: any) => y.id === x.id)).toBe(false);
    expect((await b.client.get(`${BASE}/dynamic-search?search=Secret`)).body.totalElements).toBe(0);
    expect((await b.client.get(`${BASE}/csv-export`)).body).not.toContain(x.id);
    expect((await b.client.delete(`${BASE}/delete-list?ids=${x.id}`)).status).toBe(204);
    expect((await a.client.get(`${BASE}/find/${x.id}`)).status).toBe(200);
  });
});
