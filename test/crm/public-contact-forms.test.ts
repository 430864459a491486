import { startServer, type TestServer, type TestTenant } from '../support/server';
import { Client, expectErrorBody } from '../support/http';
import { createEmployee, gql } from './support';

const FIELDS = [
  { name: 'firstName', type: 'TEXT', required: true, label: 'First name' },
  { name: 'email', type: 'EMAIL', required: true },
  { name: 'phone', type: 'PHONE' },
  { name: 'seats', type: 'NUMBER', label: 'Seats' },
  { name: 'newsletter', type: 'CHECKBOX' },
  { name: 'message', type: 'TEXTAREA' },
];

describe('Public contact forms', () => {
  let server: TestServer;
  let a: TestTenant;
  let b: TestTenant;
  // No credential at all: what a visitor's browser sends.
  let visitor: Client;
  let employeeId: string;

  const widget = async (t: TestTenant, input: object) => {
    const res = await t.client.post('/crm/contact-form-widgets', input);
    expect(res.status).toBe(201);
    return res.body as { id: string; slug: string };
  };
  const submit = (t: TestTenant | string, slug: string, body: object, headers: Record<string, string> = {}) =>
    visitor.request(
      'POST',
      `/public/contact-forms/${slug}?tenant=${typeof t === 'string' ? t : t.tenantId}`,
      body,
      headers,
    );
  const leadsOf = async (t: TestTenant) =>
    (
      await gql(
        t.client,
        `{ allLeads { id status firstName email phone note message source sourceDetail
          pageUrl referrerUrl utmSource utmMedium utmCampaign utmTerm utmContent preferredLanguage ownerId } }`,
      )
    ).allLeads as Record<string, unknown>[];

  beforeAll(async () => {
    server = await startServer({
      http: { rateLimits: { perCredential: 0, perTenant: 0, windowMs: 60_000, publicPerAddress: 1000 } },
    });
    visitor = new Client(server.baseUrl);
    a = await server.tenant('Forms A');
    b = await server.tenant('Forms B');
    const user = await a.userWith(['LEADS_READ']);
    employeeId = await createEmployee(a.client, { firstName: 'Tess', userId: user.userId });
    await widget(a, {
      name: 'Quote',
      slug: 'quote',
      fields: FIELDS,
      confirmationMessage: 'Thanks, we call you back.',
      assignedTeamLeadId: employeeId,
      allowedOrigins: ['https://shop.example'],
    });
    await widget(a, { name: 'Off', slug: 'off', active: false, fields: FIELDS });
    await widget(b, { name: 'B only', slug: 'b-only', fields: FIELDS });
  });
  afterAll(() => server.close());

  it('a submission without credential becomes a NEW lead with the visit, owned by the team lead; the answer is the confirmation', async () => {
    const res = await submit(a, 'Quote', {
      fields: {
        firstName: ' Ada ',
        email: 'ada@example.test',
        seats: 3,
        newsletter: true,
        message: 'Call me',
      },
      pageUrl: 'https://shop.example/pricing',
      referrerUrl: 'https://search.example/?q=x',
      utmSource: 'news',
      utmMedium: 'email',
      utmCampaign: 'autumn',
      utmTerm: 'quote',
      utmContent: 'banner',
      preferredLanguage: 'de',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ confirmationMessage: 'Thanks, we call you back.' });
    const [lead] = (await leadsOf(a)).filter((l) => l.email === 'ada@example.test');
    const owner = (
      await gql(a.client, `query($id: ID!) { employee(id: $id) { userId } }`, { id: employeeId })
    ).employee.userId;
    expect(lead).toMatchObject({
      status: 'NEW',
      firstName: 'Ada',
      message: 'Call me',
      note: 'Seats: 3\nnewsletter: true',
      source: 'contact-form',
      sourceDetail: 'quote',
      pageUrl: 'https://shop.example/pricing',
      referrerUrl: 'https://search.example/?q=x',
      utmSource: 'news',
      utmMedium: 'email',
      utmCampaign: 'autumn',
      utmTerm: 'quote',
      utmContent: 'banner',
      preferredLanguage: 'de',
      ownerId: owner,
    });
    expect(owner).toEqual(expect.any(String));
  });

  it("the widget's field definitions are checked: 400 naming each field, nothing stored", async () => {
    const before = (await leadsOf(a)).length;
    const res = await submit(a, 'quote', {
      fields: { email: 'not-an-address', phone: 'call me', seats: 'many', newsletter: 'yes', colour: 'red' },
    });
    expectErrorBody(res, 400);
    const named = (res.body.errors as { field: string }[]).map((e) => e.field).sort();
    expect(named).toEqual([
      'fields.colour',
      'fields.email',
      'fields.firstName',
      'fields.newsletter',
      'fields.phone',
      'fields.seats',
    ]);
    expect(res.body.detail).toContain('fields.firstName: is required');
    expect((await submit(a, 'quote', { fields: 'x' })).status).toBe(400);
    expect(
      (await submit(a, 'quote', { fields: { firstName: 'X', email: 'x@example.test' }, pageUrl: 5 })).status,
    ).toBe(400);
    expect((await leadsOf(a)).length).toBe(before);
  });

  it("unknown, inactive and other tenants' slugs are 404 alike; a bad tenant key too", async () => {
    const ok = { fields: { firstName: 'Eve', email: 'eve@example.test' } };
    for (const [t, slug] of [
      [a, 'nope'],
      [a, 'off'],
      [a, 'b-only'],
      [b, 'quote'],
      ['not-a-uuid', 'quote'],
      ['6a1e7d1c-3b0b-4a7e-9d6f-0000000000c1', 'quote'],
    ] as const) {
      const res = await submit(t, slug, ok);
      expectErrorBody(res, 404);
      expect(res.text).not.toContain(b.tenantId);
    }
    expect((await leadsOf(b)).length).toBe(0);
  });

  it('the honeypot: answered as a success, stored nowhere', async () => {
    const before = (await leadsOf(a)).length;
    const res = await submit(a, 'quote', {
      fields: { firstName: 'Bot', email: 'bot@example.test' },
      website: 'http://spam.example',
    });
    expect(res.status).toBe(201);
    expect(res.body.confirmationMessage).toBe('Thanks, we call you back.');
    expect((await leadsOf(a)).length).toBe(before);
  });

  it("CORS answers the widget's origins only; a browser post from another origin is 403", async () => {
    const url = `${server.baseUrl}/api/v1/public/contact-forms/quote?tenant=${a.tenantId}`;
    const preflight = (origin: string) =>
      fetch(url, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
    const allowed = await preflight('https://shop.example');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(allowed.headers.get('access-control-allow-methods')).toContain('POST');
    const other = await preflight('https://evil.example');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();

    const sent = await submit(
      a,
      'quote',
      { fields: { firstName: 'Cy', email: 'cy@example.test' } },
      { origin: 'https://shop.example' },
    );
    expect(sent.status).toBe(201);
    expect(sent.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    const refused = await submit(
      a,
      'quote',
      { fields: { firstName: 'Cy', email: 'cy@example.test' } },
      { origin: 'https://evil.example' },
    );
    expectErrorBody(refused, 403);
  });

  it('no JSON is a 400 in the error body', async () => {
    const res = await visitor.request('POST', `/public/contact-forms/quote?tenant=${a.tenantId}`, '{nope', {
      'content-type': 'application/json',
    });
    expectErrorBody(res, 400);
  });
});

describe('Public contact forms: rate limits', () => {
  let server: TestServer;
  let a: TestTenant;

  beforeAll(async () => {
    server = await startServer({
      http: {
        rateLimits: {
          perCredential: 0,
          perTenant: 0,
          windowMs: 60_000,
          publicPerAddress: 6,
          publicPerWidget: 3,
        },
      },
    });
    a = await server.tenant('Forms limits');
    for (const slug of ['one', 'two'])
      await a.client.post('/crm/contact-form-widgets', {
        name: slug,
        slug,
        fields: [{ name: 'email', type: 'EMAIL', required: true }],
      });
  });
  afterAll(() => server.close());

  it('per widget, then per client address: 429 with Retry-After', async () => {
    const visitor = new Client(server.baseUrl);
    const send = (slug: string) =>
      visitor.post(`/public/contact-forms/${slug}?tenant=${a.tenantId}`, {
        fields: { email: 'v@example.test' },
      });
    const one = [];
    for (let i = 0; i < 4; i++) one.push((await send('one')).status);
    expect(one).toEqual([201, 201, 201, 429]);
    const limited = await send('one');
    expectErrorBody(limited, 429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // The address has sent five; the sixth passes, the seventh is over the address's limit.
    expect((await send('two')).status).toBe(201);
    const byAddress = await send('two');
    expectErrorBody(byAddress, 429);
  });
});
