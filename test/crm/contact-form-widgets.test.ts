import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody } from '../support/http';
import { audited, createEmployee, gql, ISO, UNKNOWN_ID, UUID } from './support';

const BASE = '/crm/contact-form-widgets';

describe('Contact-form widgets', () => {
  let server: TestServer;
  let a: TestTenant;
  let b: TestTenant;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Widgets A');
    b = await server.tenant('Widgets B');
  });
  afterAll(() => server.close());

  const create = async (t: TestTenant, body: object) => {
    const res = await t.client.post(BASE, body);
    expect(res.status).toBe(201);
    return res.body;
  };

  it('POST creates with 201, Location, every documented field, a CREATE event; tenantId in the body is ignored', async () => {
    const leadId = await createEmployee(a.client, { firstName: 'Tess', lastName: 'Lead' });
    const res = await a.client.post(BASE, {
      name: 'Quote request',
      slug: 'Quote-Request',
      isActive: false,
      description: 'On the pricing page',
      confirmationMessage: 'Thanks!',
      assignedTeamLeadId: leadId,
      fields: [
        { label: 'E-mail', name: 'email', required: true, sortOrder: 2, type: 'EMAIL' },
        { name: 'phone', type: 'PHONE' },
      ],
      allowedOrigins: ['https://shop.example', '*'],
      tenantId: b.tenantId,
      events: [],
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/api/v1${BASE}/find/${res.body.id}`);
    expect(res.body).toEqual({
      ...audited(a),
      name: 'Quote request',
      slug: 'quote-request',
      description: 'On the pricing page',
      confirmationMessage: 'Thanks!',
      assignedTeamLeadId: leadId,
      active: false,
      isActive: false,
      fields: [
        { label: 'E-mail', name: 'email', required: true, sortOrder: 2, type: 'EMAIL' },
        { label: null, name: 'phone', required: false, sortOrder: 1, type: 'PHONE' },
      ],
      allowedOrigins: ['https://shop.example', '*'],
    });
    expect(res.body.createdBy).toBe(a.adminEmail);
    expect(res.body.events).toEqual([
      {
        id: expect.stringMatching(UUID),
        type: 'CREATE',
        date: expect.stringMatching(ISO),
        authorId: a.adminId,
        description: expect.any(String),
      },
    ]);
    const again = await a.client.get(`${BASE}/find/${res.body.id}`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
  });

  it('a new widget is active unless told otherwise; optional fields are null and lists []', async () => {
    const w = await create(a, { name: 'Minimal', slug: 'minimal' });
    expect(w).toEqual({
      ...audited(a),
      name: 'Minimal',
      slug: 'minimal',
      description: null,
      confirmationMessage: null,
      assignedTeamLeadId: null,
      active: true,
      isActive: true,
      fields: [],
      allowedOrigins: [],
    });
    expect((await create(a, { name: 'Off', slug: 'off', active: false })).isActive).toBe(false);
  });

  it('POST validates the body: 400 naming the field', async () => {
    const cases: [object, string][] = [
      [{ slug: 'no-name' }, 'name'],
      [{ name: 'No slug' }, 'slug'],
      [{ name: 'x', slug: 'has space' }, 'slug'],
      [{ name: 'x', slug: '-lead' }, 'slug'],
      [{ name: '', slug: 'empty-name' }, 'name'],
      [{ name: 'x', slug: 'both', active: true, isActive: false }, 'isActive'],
      [{ name: 'x', slug: 'bad-type', fields: [{ name: 'a', type: 'SIGNATURE' }] }, 'type'],
      [{ name: 'x', slug: 'no-field-name', fields: [{ type: 'TEXT' }] }, 'name'],
      [{ name: 'x', slug: 'neg', fields: [{ name: 'a', type: 'TEXT', sortOrder: -1 }] }, 'sortOrder'],
      [
        {
          name: 'x',
          slug: 'twice',
          fields: [
            { name: 'a', type: 'TEXT' },
            { name: 'a', type: 'EMAIL' },
          ],
        },
        'fields[1].name',
      ],
      [{ name: 'x', slug: 'lead', assignedTeamLeadId: 'nope' }, 'assignedTeamLeadId'],
      [{ name: 'x', slug: 'origin', allowedOrigins: ['https://shop.example/path'] }, 'allowedOrigins'],
    ];
    for (const [body, field] of cases) {
      const res = await a.client.post(BASE, body);
      expectErrorBody(res, 400);
      expect(res.body.detail).toContain(field);
    }
    const unknownLead = await a.client.post(BASE, {
      name: 'x',
      slug: 'ghost',
      assignedTeamLeadId: UNKNOWN_ID,
    });
    expectErrorBody(unknownLead, 404);
    expect(unknownLead.body.detail).toContain('assignedTeamLeadId');
  });

  it('a slug is unique within a tenant, whatever its case: 409; another tenant may use it', async () => {
    await create(a, { name: 'Contact', slug: 'contact' });
    const dup = await a.client.post(BASE, { name: 'Contact 2', slug: 'CONTACT' });
    expectErrorBody(dup, 409);
    expect(dup.body.detail).toContain('contact');
    expect((await b.client.post(BASE, { name: 'Contact', slug: 'contact' })).status).toBe(201);

    const other = await create(a, { name: 'Other', slug: 'other' });
    const rename = await a.client.graphql(
      `mutation($id: ID!, $input: UpdateContactFormWidgetInput!) { updateContactFormWidget(id: $id, input: $input) { slug } }`,
      { id: other.id, input: { slug: 'Contact' } },
    );
    expect(rename.body.errors?.[0].extensions?.status).toBe(409);
    const same = await gql(
      a.client,
      `mutation($id: ID!, $input: UpdateContactFormWidgetInput!) { updateContactFormWidget(id: $id, input: $input) { slug } }`,
      { id: other.id, input: { slug: 'OTHER' } },
    );
    expect(same.updateContactFormWidget.slug).toBe('other');
  });

  it('GraphQL update changes the fields given (either boolean name) and appends an UPDATE event', async () => {
    const w = await create(a, { name: 'Editable', slug: 'editable' });
    const data = await gql(
      a.client,
      `mutation($id: ID!, $input: UpdateContactFormWidgetInput!) {
        updateContactFormWidget(id: $id, input: $input) { name slug active isActive fields { name sortOrder } events { type description } }
      }`,
      { id: w.id, input: { isActive: false, fields: [{ name: 'msg', type: 'TEXTAREA' }] } },
    );
    expect(data.updateContactFormWidget).toMatchObject({
      name: 'Editable',
      slug: 'editable',
      active: false,
      isActive: false,
      fields: [{ name: 'msg', sortOrder: 0 }],
    });
    expect(data.updateContactFormWidget.events.map((e: any) => e.type)).toEqual(['CREATE', 'UPDATE']);
    expect(data.updateContactFormWidget.events[1].description).toContain('active');
    const clearName = await a.client.graphql(
      `mutation($id: ID!, $input: UpdateContactFormWidgetInput!) { updateContactFormWidget(id: $id, input: $input) { name } }`,
      { id: w.id, input: { name: null } },
    );
    expect(clearName.body.errors?.[0].extensions?.status).toBe(400);
  });

  it('GET /active lists the active widgets only', async () => {
    const t = await server.tenant('Active widgets');
    const on = (await t.client.post(BASE, { name: 'On', slug: 'on', isActive: true })).body;
    await t.client.post(BASE, { name: 'Off', slug: 'off', isActive: false });
    const res = await t.client.get(`${BASE}/active`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([on]);
  });

  it('the lookup family: find, find-all, find/{id}, find-list, page', async () => {
    const t = await server.tenant('Widget lookups');
    const x = (await t.client.post(BASE, { name: 'Xray', slug: 'x' })).body;
    const y = (await t.client.post(BASE, { name: 'Yankee', slug: 'y' })).body;

    const find = await t.client.get(`${BASE}/find?ids=${y.id},${UNKNOWN_ID}&ids=${x.id}&ids=garbage`);
    expect(find.status).toBe(200);
    expect(find.body).toEqual([y, x]);
    expectErrorBody(await t.client.get(`${BASE}/find`), 400);

    expect((await t.client.get(`${BASE}/find-all`)).body).toEqual([x, y]);
    expectErrorBody(await t.client.get(`${BASE}/find/${UNKNOWN_ID}`), 404);
    expectErrorBody(await t.client.get(`${BASE}/find/not-an-id`), 404);

    expect((await t.client.get(`${BASE}/find-list`)).body).toEqual([]);
    expect((await t.client.get(`${BASE}/find-list?ids=${x.id}`)).body).toEqual([x]);

    const page = await t.client.get(`${BASE}/page?pageSize=1&sortBy=name&direction=DESC&search=a`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ content: [y], totalElements: 2, totalPages: 2, number: 0, size: 1 });
    expectErrorBody(await t.client.get(`${BASE}/page?sortBy=fields`), 400);
  });

  it('dynamic search (GET and POST), CSV export and delete-list', async () => {
    const t = await server.tenant('Widget search');
    const on = (await t.client.post(BASE, { name: 'Newsletter', slug: 'news', isActive: true })).body;
    const off = (await t.client.post(BASE, { name: '=cmd|calc', slug: 'calc', isActive: false })).body;

    const get = await t.client.get(`${BASE}/dynamic-search?filters=active:eq:true&sort=name,asc`);
    expect(get.status).toBe(200);
    expect(get.body).toMatchObject({ content: [on], totalElements: 1, size: 20, number: 0 });
    const post = await t.client.post(`${BASE}/dynamic-search`, {
      filters: { active: false },
      search: ['CALC'],
      sort: [{ field: 'name', ascending: true }],
    });
    expect(post.status).toBe(200);
    expect(post.body.content).toEqual([off]);
    // Both names of the pair filter alike.
    const alias = await t.client.get(`${BASE}/dynamic-search?filters=isActive:eq:false&search=CALC`);
    expect(alias.body.content).toEqual([off]);
    expectErrorBody(await t.client.get(`${BASE}/dynamic-search?filters=active:gt:true`), 400);

    const csv = await t.client.get(`${BASE}/csv-export?sort=name,asc`);
    expect(csv.status).toBe(200);
    expect(typeof csv.body).toBe('string');
    const lines = (csv.body as string).split('\r\n').filter((l) => l.length > 0);
    expect(lines[0].split(',')).toEqual(
      expect.arrayContaining(['id', 'tenantId', 'name', 'slug', 'active', 'isActive', 'fields']),
    );
    expect(lines).toHaveLength(3);
    expect(csv.body).toContain(`'=cmd|calc`);

    const del = await t.client.delete(`${BASE}/delete-list?ids=${off.id},${UNKNOWN_ID}`);
    expect(del.status).toBe(204);
    expect((await t.client.get(`${BASE}/find-all`)).body).toEqual([on]);
    expectErrorBody(await t.client.delete(`${BASE}/delete-list`), 400);
  });

  it('permissions: READ for reads, CREATE for POST, DELETE for delete-list', async () => {
    const w = await create(a, { name: 'Guarded', slug: 'guarded' });
    const reader = await a.userWith(['READ_CONTACT_FORMS']);
    const nobody = await a.userWith(['READ_ACTIVITIES']);
    expect((await reader.client.get(`${BASE}/find/${w.id}`)).status).toBe(200);
    expect((await reader.client.get(`${BASE}/active`)).status).toBe(200);
    expectErrorBody(await reader.client.post(BASE, { name: 'x', slug: 'x' }), 403);
    expectErrorBody(await reader.client.delete(`${BASE}/delete-list?ids=${w.id}`), 403);
    for (const path of ['/find-all', '/active', `/find/${w.id}`, '/page', '/dynamic-search', '/csv-export'])
      expectErrorBody(await nobody.client.get(`${BASE}${path}`), 403);
    expectErrorBody(await nobody.client.post(`${BASE}/dynamic-search`, {}), 403);
    const creator = await a.userWith(['CREATE_CONTACT_FORMS']);
    expect((await creator.client.post(BASE, { name: 'By creator', slug: 'by-creator' })).status).toBe(201);
    expect((await a.client.get(`${BASE}/find/${w.id}`)).status).toBe(200);
  });

  it('tenant isolation: another tenant can neither read, list, search, export nor delete', async () => {
    const w = await create(a, { name: 'Private widget', slug: 'private-widget' });
    expectErrorBody(await b.client.get(`${BASE}/find/${w.id}`), 404);
    expect((await b.client.get(`${BASE}/find?ids=${w.id}`)).body).toEqual([]);
    expect((await b.client.get(`${BASE}/find-list?ids=${w.id}`)).body).toEqual([]);
    const all = (await b.client.get(`${BASE}/find-all`)).body as any[];
    expect(all.some((x) => x.id === w.id)).toBe(false);
    expect((await b.client.get(`${BASE}/active`)).body.some((x: any) => x.id === w.id)).toBe(false);
    expect((await b.client.get(`${BASE}/page?search=Private`)).body.totalElements).toBe(0);
    expect((await b.client.get(`${BASE}/dynamic-search?search=Private`)).body.totalElements).toBe(0);
    expect((await b.client.get(`${BASE}/csv-export?search=Private`)).body).not.toContain(w.id);
    expect((await b.client.delete(`${BASE}/delete-list?ids=${w.id}`)).status).toBe(204);
    expect((await a.client.get(`${BASE}/find/${w.id}`)).status).toBe(200);
    const update = await b.client.graphql(
      `mutation($id: ID!) { updateContactFormWidget(id: $id, input: { name: "stolen" }) { id } }`,
      { id: w.id },
    );
    expect(update.body.errors?.[0].extensions?.status).toBe(404);
  });
});
