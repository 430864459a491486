import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody } from '../support/http';
import {
  audited,
  createEmployee,
  createSubsidiary,
  eventLines,
  gql,
  gqlErrorStatus,
  UNKNOWN_ID,
} from './support';

const BASE = '/crm/bookings';

const CREATE = `mutation($input: CreateBookingInput!) { createBooking(input: $input) {
  id widgetConfigId startTime endTime duration status cancellationToken
} }`;
const UPDATE = `mutation($id: ID!, $input: UpdateBookingInput!) { updateBooking(id: $id, input: $input) {
  id startTime endTime duration status events { type description }
} }`;

describe('Bookings', () => {
  let server: TestServer;
  let a: TestTenant;
  let b: TestTenant;
  let widgetId: string;
  let otherWidgetId: string;

  const widget = async (t: TestTenant, slug: string) =>
    (await t.client.post('/crm/contact-form-widgets', { name: slug, slug })).body.id as string;
  const book = async (t: TestTenant, input: object) => (await gql(t.client, CREATE, { input })).createBooking;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Bookings A');
    b = await server.tenant('Bookings B');
    widgetId = await widget(a, 'demo');
    otherWidgetId = await widget(a, 'other');
  });
  afterAll(() => server.close());

  it('GraphQL createBooking stores every documented field; the service makes the token and the end time', async () => {
    const employee = await createEmployee(a.client, { firstName: 'Eve' });
    const subsidiary = await createSubsidiary(a.client, { name: 'North' });
    const created = await book(a, {
      widgetConfigId: widgetId,
      assignedEmployeeId: employee,
      assignedSubsidiaryId: subsidiary,
      startTime: '2026-12-01T10:00:00.000Z',
      duration: 45,
      timezone: 'Europe/Amsterdam',
      firstName: 'Vic',
      lastName: 'Visitor',
      email: 'vic@example.test',
      calendarEventId: 'AAMkAGI2T',
    });
    expect(created).toMatchObject({
      endTime: '2026-12-01T10:45:00.000Z',
      duration: 45,
      status: 'CONFIRMED',
      cancellationToken: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
    });
    const res = await a.client.get(`${BASE}/find/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...audited(a),
      id: created.id,
      widgetConfigId: widgetId,
      leadId: null,
      activityId: null,
      assignedEmployeeId: employee,
      assignedSubsidiaryId: subsidiary,
      calendarEventId: 'AAMkAGI2T',
      cancellationToken: created.cancellationToken,
      status: 'CONFIRMED',
      startTime: '2026-12-01T10:00:00.000Z',
      endTime: '2026-12-01T10:45:00.000Z',
      duration: 45,
      timezone: 'Europe/Amsterdam',
      firstName: 'Vic',
      lastName: 'Visitor',
      companyName: null,
      email: 'vic@example.test',
      phone: null,
      street: null,
      houseNumber: null,
      postalCode: null,
      city: null,
      message: null,
      remindedAt: null,
    });
    expect(eventLines(res.body)).toEqual([expect.stringMatching(/^CREATE/)]);
    const other = await book(a, { startTime: '2026-12-01T10:00:00Z' });
    expect(other.cancellationToken).not.toBe(created.cancellationToken);
    expect(other).toMatchObject({ endTime: null, duration: null, widgetConfigId: null });
  });

  it('end time and duration follow each other; a move keeps the length; bad values are 400', async () => {
    const fromEnd = await book(a, { startTime: '2026-12-02T08:00:00Z', endTime: '2026-12-02T09:30:00Z' });
    expect(fromEnd.duration).toBe(90);
    const moved = await gql(a.client, UPDATE, {
      id: fromEnd.id,
      input: { startTime: '2026-12-03T08:00:00Z' },
    });
    expect(moved.updateBooking).toMatchObject({ endTime: '2026-12-03T09:30:00.000Z', duration: 90 });
    expect(moved.updateBooking.events[1].description).toMatch(/startTime/);
    const cleared = await a.client.graphql(UPDATE, { id: fromEnd.id, input: { startTime: null } });
    expect(cleared.body.errors?.[0].extensions?.status).toBe(400);
    expect(cleared.body.errors?.[0].message).toContain('startTime');

    const invalid: [object, string][] = [
      [{ startTime: '2026-12-02T08:00:00Z', endTime: '2026-12-02T07:00:00Z' }, 'endTime'],
      [{ startTime: '2026-12-02T08:00:00Z', endTime: '2026-12-02T09:00:00Z', duration: 30 }, 'duration'],
      [{ startTime: '2026-12-02T08:00:00Z', duration: -1 }, 'duration'],
      [{ startTime: '2026-12-02T08:00:00Z', timezone: 'Mars/Olympus' }, 'timezone'],
      [{ startTime: '2026-12-02T08:00:00Z', email: 'nope' }, 'email'],
      [{ startTime: '2026-12-02T08:00:00Z', status: 'LATE' }, 'status'],
      [{ startTime: 'soon' }, 'startTime'],
      [{ firstName: 'No time' }, 'startTime'],
    ];
    for (const [input, field] of invalid) {
      const res = await a.client.graphql(CREATE, { input });
      expect(res.body.errors?.[0].extensions?.status).toBe(400);
      expect(res.body.errors?.[0].message).toContain(field);
    }
    for (const field of [
      'widgetConfigId',
      'leadId',
      'activityId',
      'assignedEmployeeId',
      'assignedSubsidiaryId',
    ])
      expect(
        await gqlErrorStatus(a.client, CREATE, {
          input: { startTime: '2026-12-02T08:00:00Z', [field]: UNKNOWN_ID },
        }),
      ).toBe(404);
  });

  it('a status change appends STATUS_CHANGE "OLD -> NEW"', async () => {
    const x = await book(a, { startTime: '2026-12-04T08:00:00Z', status: 'PENDING' });
    expect(x.status).toBe('PENDING');
    const data = await gql(a.client, UPDATE, { id: x.id, input: { status: 'NO_SHOW' } });
    expect(eventLines(data.updateBooking)).toEqual([
      expect.stringMatching(/^CREATE/),
      'STATUS_CHANGE: PENDING -> NO_SHOW',
    ]);
  });

  it('GET /by-widget/{widgetId}: bookings starting within [start 00:00Z, end 24:00Z), earliest first', async () => {
    const at = (startTime: string, widgetConfigId = widgetId) => book(a, { startTime, widgetConfigId });
    const before = await at('2027-03-09T23:59:59.999Z');
    const first = await at('2027-03-10T00:00:00.000Z');
    const last = await at('2027-03-12T23:59:59.999Z');
    const middle = await at('2027-03-11T12:00:00.000Z');
    const after = await at('2027-03-13T00:00:00.000Z');
    await at('2027-03-11T12:00:00.000Z', otherWidgetId);

    const res = await a.client.get(`${BASE}/by-widget/${widgetId}?start=2027-03-10&end=2027-03-12`);
    expect(res.status).toBe(200);
    expect(res.body.map((x: any) => x.id)).toEqual([first.id, middle.id, last.id]);
    expect(res.body[0]).toEqual(
      expect.objectContaining({ ...audited(a), id: first.id, cancellationToken: first.cancellationToken }),
    );
    const oneDay = await a.client.get(`${BASE}/by-widget/${widgetId}?start=2027-03-09&end=2027-03-09`);
    expect(oneDay.body.map((x: any) => x.id)).toEqual([before.id]);
    const nextDay = await a.client.get(`${BASE}/by-widget/${widgetId}?start=2027-03-13&end=2027-03-13`);
    expect(nextDay.body.map((x: any) => x.id)).toEqual([after.id]);

    expect(
      (await a.client.get(`${BASE}/by-widget/${UNKNOWN_ID}?start=2027-03-10&end=2027-03-12`)).body,
    ).toEqual([]);
    expect((await a.client.get(`${BASE}/by-widget/not-an-id?start=2027-03-10&end=2027-03-12`)).body).toEqual(
      [],
    );
  });

  it('GET /by-widget/{widgetId} needs both dates, well-formed, end not before start: else 400', async () => {
    const cases: [string, string][] = [
      ['', 'is required'],
      ['?start=2027-03-10', 'end'],
      ['?end=2027-03-10', 'start'],
      ['?start=2027-03-10&end=2027-02-30', 'end'],
      ['?start=10-03-2027&end=2027-03-12', 'start'],
      ['?start=2027-03-10T00:00:00Z&end=2027-03-12', 'start'],
      ['?start=2027-03-12&end=2027-03-10', 'end'],
      ['?start=2027-03-10&start=2027-03-11&end=2027-03-12', 'start'],
    ];
    for (const [query, culprit] of cases) {
      const res = await a.client.get(`${BASE}/by-widget/${widgetId}${query}`);
      expectErrorBody(res, 400);
      expect(res.body.detail).toContain(culprit);
    }
  });

  it('the family: find, find-all, find/{id}, find-list, page, dynamic search, CSV, delete-list', async () => {
    const t = await server.tenant('Booking family');
    const x = await book(t, { startTime: '2026-05-01T09:00:00Z', lastName: 'Xavier', status: 'PENDING' });
    const y = await book(t, { startTime: '2026-05-02T09:00:00Z', lastName: 'Young', companyName: '@corp' });

    const find = await t.client.get(`${BASE}/find?ids=${y.id}&ids=${UNKNOWN_ID},${x.id}`);
    expect(find.body.map((r: any) => r.id)).toEqual([y.id, x.id]);
    expectErrorBody(await t.client.get(`${BASE}/find`), 400);
    expect((await t.client.get(`${BASE}/find-all`)).body.map((r: any) => r.id)).toEqual([x.id, y.id]);
    expectErrorBody(await t.client.get(`${BASE}/find/nope`), 404);
    expect((await t.client.get(`${BASE}/find-list`)).body).toEqual([]);
    expect((await t.client.get(`${BASE}/find-list?ids=${y.id}`)).body.map((r: any) => r.id)).toEqual([y.id]);

    const page = await t.client.get(`${BASE}/page?sortBy=startTime&direction=DESC&pageSize=1`);
    expect(page.body).toMatchObject({ totalElements: 2, content: [{ id: y.id }] });

    const get = await t.client.get(`${BASE}/dynamic-search?filters=startTime:lt:2026-05-02T00:00:00Z`);
    expect(get.body.content.map((r: any) => r.id)).toEqual([x.id]);
    const post = await t.client.post(`${BASE}/dynamic-search`, {
      filters: { status: 'CONFIRMED' },
      search: ['young'],
    });
    expect(post.body.content.map((r: any) => r.id)).toEqual([y.id]);
    expectErrorBody(await t.client.post(`${BASE}/dynamic-search`, { filters: { status: 'LATE' } }), 400);

    const csv = await t.client.get(`${BASE}/csv-export?sort=startTime,asc`);
    const lines = (csv.body as string).split('\r\n').filter((l) => l.length > 0);
    expect(lines).toHaveLength(3);
    expect(lines[0].split(',')).toEqual(expect.arrayContaining(['startTime', 'cancellationToken', 'status']));
    expect(csv.body).toContain(`'@corp`);

    expect((await t.client.delete(`${BASE}/delete-list?ids=${x.id}`)).status).toBe(204);
    expect((await t.client.get(`${BASE}/find-all`)).body.map((r: any) => r.id)).toEqual([y.id]);
  });

  it('permissions: READ for reads, DELETE for delete-list, CREATE and UPDATE for the GraphQL writes', async () => {
    const reader = await a.userWith(['READ_BOOKINGS']);
    const other = await a.userWith(['READ_CONTACT_FORMS']);
    expect(
      (await reader.client.get(`${BASE}/by-widget/${widgetId}?start=2026-01-01&end=2026-01-02`)).status,
    ).toBe(200);
    expectErrorBody(await reader.client.delete(`${BASE}/delete-list?ids=${UNKNOWN_ID}`), 403);
    expect(
      await gqlErrorStatus(reader.client, CREATE, { input: { startTime: '2026-12-01T10:00:00Z' } }),
    ).toBe(403);
    for (const path of [
      '/find-all',
      `/find/${UNKNOWN_ID}`,
      `/find?ids=${UNKNOWN_ID}`,
      '/find-list',
      '/page',
      '/dynamic-search',
      '/csv-export',
      `/by-widget/${widgetId}?start=2026-01-01&end=2026-01-02`,
    ])
      expectErrorBody(await other.client.get(`${BASE}${path}`), 403);
  });

  it('tenant isolation: another tenant can neither read, list, search, export nor delete', async () => {
    const x = await book(a, {
      startTime: '2028-01-01T10:00:00Z',
      widgetConfigId: widgetId,
      lastName: 'Hidden',
    });
    expectErrorBody(await b.client.get(`${BASE}/find/${x.id}`), 404);
    expect((await b.client.get(`${BASE}/find?ids=${x.id}`)).body).toEqual([]);
    expect((await b.client.get(`${BASE}/find-all`)).body).toEqual([]);
    expect(
      (await b.client.get(`${BASE}/by-widget/${widgetId}?start=2028-01-01&end=2028-01-01`)).body,
    ).toEqual([]);
    expect((await b.client.get(`${BASE}/dynamic-search?search=Hidden`)).body.totalElements).toBe(0);
    expect((await b.client.get(`${BASE}/csv-export`)).body).not.toContain(x.id);
    expect((await b.client.delete(`${BASE}/delete-list?ids=${x.id}`)).status).toBe(204);
    expect((await a.client.get(`${BASE}/find/${x.id}`)).status).toBe(200);
    expect(await gqlErrorStatus(b.client, UPDATE, { id: x.id, input: { status: 'CANCELLED' } })).toBe(404);
    // A widget of another tenant cannot be named either.
    expect(
      await gqlErrorStatus(b.client, CREATE, {
        input: { startTime: '2028-01-01T10:00:00Z', widgetConfigId: widgetId },
      }),
    ).toBe(404);
  });
});
