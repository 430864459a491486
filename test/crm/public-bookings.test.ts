import { createLogger } from '../../src/logger';
import { eventSettings } from '../../src/events/settings';
import { startEventWorker, type EventWorker } from '../../src/events/worker';
import { startSmtp } from '../support/smtp';
import { waitFor } from '../events/receiver';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { Client, expectErrorBody } from '../support/http';
import { withTenant } from '../../src/db/tenant-transaction';
import { queryRows } from '../../src/db/orm-bypass/statements';
import { workerDatabaseUrl } from '../support/database';
import { childEnv, cliCommands, randomSecret } from '../support/process';
import { createEmployee, gql } from './support';

/** The next Monday (UTC) at least a week away, as YYYY-MM-DD: every slot of that week is in the future. */
function nextMonday(): string {
  const d = new Date(Date.now() + 7 * 86_400_000);
  d.setUTCDate(d.getUTCDate() + ((8 - d.getUTCDay()) % 7));
  return d.toISOString().slice(0, 10);
}

describe('Public bookings', () => {
  let server: TestServer;
  let a: TestTenant;
  let b: TestTenant;
  let visitor: Client;
  let monday: string;

  const slots = (t: TestTenant, slug: string, query = `&from=${monday}&days=1`) =>
    visitor.get(`/public/bookings/${slug}/slots?tenant=${t.tenantId}${query}`);
  const book = (t: TestTenant, slug: string, body: object) =>
    visitor.post(`/public/bookings/${slug}?tenant=${t.tenantId}`, body);
  const cancel = (t: TestTenant, token: string) =>
    visitor.post(`/public/bookings/cancel?tenant=${t.tenantId}`, { token });

  beforeAll(async () => {
    server = await startServer({
      http: { rateLimits: { perCredential: 0, perTenant: 0, windowMs: 60_000, publicPerAddress: 1000 } },
    });
    visitor = new Client(server.baseUrl);
    monday = nextMonday();
    a = await server.tenant('Book A');
    b = await server.tenant('Book B');
    const user = await a.userWith(['LEADS_READ']);
    const employeeId = await createEmployee(a.client, { firstName: 'Tess', userId: user.userId });
    await a.client.post('/crm/contact-form-widgets', {
      name: 'Demo',
      slug: 'demo',
      assignedTeamLeadId: employeeId,
    });
    await a.client.post('/crm/contact-form-widgets', { name: 'Nobody', slug: 'nobody' });
    const other = await createEmployee(b.client, { firstName: 'Bo' });
    await b.client.post('/crm/contact-form-widgets', {
      name: 'B',
      slug: 'b-demo',
      assignedTeamLeadId: other,
    });
  });
  afterAll(() => server.close());

  it('free slots without credential: 30 minutes, 09:00 to 17:00 UTC on a weekday', async () => {
    const res = await slots(a, 'demo');
    expect(res.status).toBe(200);
    expect(res.body.slotMinutes).toBe(30);
    expect(res.body.slots).toHaveLength(16);
    expect(res.body.slots[0]).toEqual({
      startTime: `${monday}T09:00:00.000Z`,
      endTime: `${monday}T09:30:00.000Z`,
    });
    expectErrorBody(await slots(a, 'demo', '&from=tomorrow'), 400);
    expectErrorBody(await slots(a, 'demo', '&days=99'), 400);
    expectErrorBody(await slots(a, 'nobody'), 404);
  });

  it('a booking takes its slot, creates the lead and is cancelled once by its token', async () => {
    const startTime = `${monday}T10:00:00.000Z`;
    const res = await book(a, 'demo', { startTime, email: 'ada@example.test', firstName: 'Ada' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'CONFIRMED', startTime, endTime: `${monday}T10:30:00.000Z` });
    const free = (await slots(a, 'demo')).body.slots.map((s: { startTime: string }) => s.startTime);
    expect(free).not.toContain(startTime);
    expect(free).toHaveLength(15);

    const booking = (
      await gql(
        a.client,
        `query($ids: [ID!]!) { bookings(ids: $ids) { leadId assignedEmployeeId email status } }`,
        {
          ids: [res.body.id],
        },
      )
    ).bookings[0];
    expect(booking).toMatchObject({ email: 'ada@example.test', status: 'CONFIRMED' });
    const lead = (
      await gql(
        a.client,
        `query($ids: [ID!]!) { leads(ids: $ids) { email source sourceDetail status ownerId } }`,
        {
          ids: [booking.leadId],
        },
      )
    ).leads[0];
    expect(lead).toMatchObject({
      email: 'ada@example.test',
      source: 'booking',
      sourceDetail: 'demo',
      status: 'NEW',
    });
    expect(lead.ownerId).toEqual(expect.any(String));

    // The same visitor again: the lead is linked, not made anew.
    const second = await book(a, 'demo', { startTime: `${monday}T11:00:00.000Z`, email: 'ADA@example.test' });
    const again = (
      await gql(a.client, `query($ids: [ID!]!) { bookings(ids: $ids) { leadId } }`, { ids: [second.body.id] })
    ).bookings[0];
    expect(again.leadId).toBe(booking.leadId);

    // Tenant B never knows tenant A's token.
    expectErrorBody(await cancel(b, res.body.cancellationToken), 404);
    const cancelled = await cancel(a, res.body.cancellationToken);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: res.body.id, status: 'CANCELLED' });
    expectErrorBody(await cancel(a, res.body.cancellationToken), 404);
    expectErrorBody(await cancel(a, 'no-such-token'), 404);
    expect((await slots(a, 'demo')).body.slots.map((s: { startTime: string }) => s.startTime)).toContain(
      startTime,
    );
  });

  it('a taken slot is 409; a time off the grid or in the past is 400; other tenants are 404', async () => {
    const startTime = `${monday}T13:00:00.000Z`;
    expect((await book(a, 'demo', { startTime, email: 'one@example.test' })).status).toBe(201);
    expectErrorBody(await book(a, 'demo', { startTime, email: 'two@example.test' }), 409);
    const bad = await book(a, 'demo', { startTime: `${monday}T13:10:00.000Z`, email: 'x' });
    expectErrorBody(bad, 400);
    expect((bad.body.errors as { field: string }[]).map((e) => e.field).sort()).toEqual([
      'email',
      'startTime',
    ]);
    expectErrorBody(
      await book(a, 'demo', { startTime: '2020-01-06T09:00:00.000Z', email: 'x@example.test' }),
      400,
    );
    expectErrorBody(await book(b, 'demo', { startTime, email: 'x@example.test' }), 404);
    expectErrorBody(await slots(b, 'demo'), 404);
  });

  it('eight concurrent bookings of one slot: exactly one 201, the others 409', async () => {
    const startTime = `${monday}T15:00:00.000Z`;
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => book(a, 'demo', { startTime, email: `race${i}@example.test` })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
  });
});

/** A service whose mails reach a test SMTP server through an event worker of its own. */
async function startMailing() {
  const server = await startServer({
    http: { rateLimits: { perCredential: 0, perTenant: 0, windowMs: 60_000, publicPerAddress: 1000 } },
  });
  const smtp = await startSmtp();
  const worker = startEventWorker(server.orm, createLogger('silent'), {
    ...eventSettings({}),
    smtpUrl: smtp.url,
    mailFrom: 'bookings@service.test',
    pollIntervalMs: 50,
  });
  return { server, smtp, worker };
}

describe('Public booking confirmation e-mail', () => {
  let server: TestServer;
  let a: TestTenant;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let worker: EventWorker;

  beforeAll(async () => {
    ({ server, smtp, worker } = await startMailing());
    a = await server.tenant('Book Mail');
    const employeeId = await createEmployee(a.client, { firstName: 'Tess' });
    await a.client.post('/crm/contact-form-widgets', {
      name: 'Demo',
      slug: 'demo',
      assignedTeamLeadId: employeeId,
    });
  }, 120_000);
  afterAll(async () => {
    await worker.stop();
    await smtp.close();
    await server.close();
  });

  it('mails the visitor an invitation (.ics) and a link whose token cancels the booking', async () => {
    const visitor = new Client(server.baseUrl);
    const startTime = `${nextMonday()}T13:00:00.000Z`;
    const res = await visitor.post(`/public/bookings/demo?tenant=${a.tenantId}`, {
      startTime,
      email: 'grace@example.test',
    });
    expect(res.status).toBe(201);
    const [mail] = await waitFor(
      () => smtp.to('grace@example.test').length > 0 && smtp.to('grace@example.test'),
    );
    const ics = mail.parsed.attachments.find((f) => f.filename === 'booking.ics');
    expect(ics).toBeDefined();
    const text = ics!.content.toString('utf8');
    expect(text).toMatch(/^BEGIN:VCALENDAR/);
    expect(text).toContain('METHOD:REQUEST');
    expect(text).toContain(`UID:${res.body.id}`);
    expect(text).toContain(`DTSTART:${startTime.replace(/[-:]/g, '').replace('.000', '')}`);
    const link = /https?:\/\/\S+\/api\/v1(\/public\/bookings\/cancel\?\S+)/.exec(mail.parsed.text ?? '');
    expect(link).not.toBeNull();
    const params = new URL(`http://x${link![1]}`).searchParams;
    expect(params.get('tenant')).toBe(a.tenantId);
    // The page behind the link posts its token.
    const cancelled = await visitor.post(`/public/bookings/cancel?tenant=${a.tenantId}`, {
      token: params.get('token'),
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: res.body.id, status: 'CANCELLED' });
  });
});

describe('the bookings job (bms jobs:run crm.bookings): reminders, then COMPLETED', () => {
  let server: TestServer;
  let a: TestTenant;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let worker: EventWorker;
  let env: NodeJS.ProcessEnv;
  const { ok } = cliCommands(() => env);

  beforeAll(async () => {
    ({ server, smtp, worker } = await startMailing());
    env = childEnv({ DATABASE_URL: await workerDatabaseUrl(), JWT_SECRET: randomSecret() });
    a = await server.tenant('Book Jobs');
  }, 120_000);
  afterAll(async () => {
    await worker.stop();
    await smtp.close();
    await server.close();
  });

  const run = async (now: string) =>
    (await ok('jobs:run', 'crm.bookings', '--tenant', a.tenantId, '--now', now)) as {
      job: string;
      outcome: string;
      items: number;
    }[];
  const reminders = (to: string) => smtp.to(to).filter((m) => /^Reminder:/.test(m.parsed.subject ?? ''));
  const statusOf = async (id: string) =>
    (await gql(a.client, `query($ids: [ID!]!) { bookings(ids: $ids) { status remindedAt } }`, { ids: [id] }))
      .bookings[0] as { status: string; remindedAt: string | null };

  it('reminds each confirmed visitor once, tells the employee, and completes what ended; NO_SHOW and CANCELLED stay', async () => {
    const staff = await a.userWith([]);
    const employeeId = await createEmployee(a.client, { firstName: 'Tess', userId: staff.userId });
    await a.client.post('/crm/contact-form-widgets', {
      name: 'Jobs',
      slug: 'jobs',
      assignedTeamLeadId: employeeId,
    });
    const visitor = new Client(server.baseUrl);
    const day = nextMonday();
    const book = async (time: string, email: string) => {
      const res = await visitor.post(`/public/bookings/jobs?tenant=${a.tenantId}`, {
        startTime: `${day}T${time}:00.000Z`,
        email,
        firstName: email.split('@')[0],
      });
      expect(res.status).toBe(201);
      return res.body as { id: string; cancellationToken: string };
    };
    const later = await book('14:00', 'later@example.test');
    const early = await book('09:00', 'early@example.test');
    const absent = await book('09:30', 'absent@example.test');
    const cancelled = await book('10:00', 'cancelled@example.test');
    await gql(
      a.client,
      'mutation($id: ID!, $i: UpdateBookingInput!) { updateBooking(id: $id, input: $i) { id } }',
      {
        id: absent.id,
        i: { status: 'NO_SHOW' },
      },
    );
    expect(
      (
        await visitor.post(`/public/bookings/cancel?tenant=${a.tenantId}`, {
          token: cancelled.cancellationToken,
        })
      ).status,
    ).toBe(200);

    // A day ahead is too early for every one of them.
    expect((await run(`${dayBefore(day)}T07:59:00.000Z`))[0].items).toBe(0);

    // Within 24 hours of both confirmed meetings: two reminders, none for NO_SHOW or CANCELLED.
    const morning = `${day}T08:00:00.000Z`;
    // Two runs at once (two processes): each booking is taken by one of them only.
    const both = await Promise.all([run(morning), run(morning)]);
    for (const result of both)
      expect(result).toEqual([expect.objectContaining({ job: 'crm.bookings', outcome: 'ok' })]);
    expect(both[0][0].items + both[1][0].items).toBe(2);
    const [mail] = await waitFor(
      () => reminders('later@example.test').length > 0 && reminders('later@example.test'),
    );
    expect(mail.parsed.subject).toContain(`${day} 14:00 UTC`);
    const link = /https?:\/\/\S+\/api\/v1\/public\/bookings\/cancel\?\S+/.exec(mail.parsed.text ?? '');
    expect(new URL(link![0]).searchParams.get('token')).toBe(later.cancellationToken);
    await waitFor(() => reminders('early@example.test').length > 0);
    expect((await statusOf(later.id)).remindedAt).toBe(morning);

    // Again, at once and later: nothing more is sent.
    expect((await run(morning))[0].items).toBe(0);
    expect((await run(`${day}T08:30:00.000Z`))[0].items).toBe(0);
    const queued = await withTenant(
      server.orm.em,
      { tenantId: a.tenantId, userId: null, email: 'test' },
      (em) =>
        queryRows(
          em,
          `select target->'mail'->>'to' as "to" from event_delivery where tenant_id = $1 and event_type = 'booking.reminder_mail' order by 1`,
          [a.tenantId],
        ),
    );
    expect(queued.map((r) => r.to)).toEqual(['early@example.test', 'later@example.test']);
    expect(reminders('later@example.test')).toHaveLength(1);
    expect(reminders('absent@example.test')).toHaveLength(0);
    expect(reminders('cancelled@example.test')).toHaveLength(0);

    // The employee's user hears of both appointments.
    const notes = (await staff.client.get('/notifications/me?pageSize=100')).body.content as {
      scope: string;
      title: string;
    }[];
    expect(
      notes
        .filter((n) => n.scope === 'activity.due')
        .map((n) => n.title)
        .sort(),
    ).toEqual(['Appointment with early is coming up', 'Appointment with later is coming up']);

    // At noon the 09:00 meeting has ended: COMPLETED, with its status_changed event.
    expect((await run(`${day}T12:00:00.000Z`))[0].items).toBe(1);
    expect((await statusOf(early.id)).status).toBe('COMPLETED');
    expect((await statusOf(later.id)).status).toBe('CONFIRMED');
    expect((await statusOf(absent.id)).status).toBe('NO_SHOW');
    expect((await statusOf(cancelled.id)).status).toBe('CANCELLED');
    const events = await withTenant(
      server.orm.em,
      { tenantId: a.tenantId, userId: null, email: 'test' },
      (em) =>
        queryRows(
          em,
          `select type from outbox_event where tenant_id = $1 and resource_id = $2 order by occurred_at`,
          [a.tenantId, early.id],
        ),
    );
    expect(events.map((e) => e.type)).toContain('booking.status_changed');

    // The evening: the 14:00 meeting is over too, the others stay as they are.
    expect((await run(`${day}T18:00:00.000Z`))[0].items).toBe(1);
    expect((await statusOf(later.id)).status).toBe('COMPLETED');
    expect((await statusOf(absent.id)).status).toBe('NO_SHOW');
    expect((await statusOf(cancelled.id)).status).toBe('CANCELLED');
    expect(reminders('later@example.test')).toHaveLength(1);
  });
});

/** The day before `day` (YYYY-MM-DD). */
function dayBefore(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) - 86_400_000).toISOString().slice(0, 10);
}
