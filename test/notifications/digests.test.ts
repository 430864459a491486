import { createLogger } from '../../src/logger';
import { openOrm } from '../../src/db/orm';
import { digestPeriods, scheduleDigests, unsubscribeToken } from '../../src/events/digest';
import { asEventWorker } from '../../src/events/store';
import { eventSettings, useEventSettings, type EventSettings } from '../../src/events/settings';
import { startEventWorker, type EventWorker } from '../../src/events/worker';
import { workerDatabaseUrl } from '../support/database';
import { expectErrorBody } from '../support/http';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { waitFor } from '../events/receiver';
import { startSmtp } from '../support/smtp';
import { ormComposition } from '../../src/orm-composition';

/**
 * Digests: scheduled for the period that ended (the test moves "now" a day or a week ahead of
 * the notifications it creates through the API), mailed once by whichever of two racing
 * processes gets there first, in the user's language, with a signed unsubscribe link that works
 * without signing in.
 */
/** A header of a raw message, unfolded (mailparser reads List-* headers into an object of its own). */
const headerOf = (raw: string, name: string) =>
  new RegExp(`^${name}: (.*)$`, 'mi').exec(raw.replace(/\r?\n[ \t]+/g, ' '))?.[1].trim();

describe('e-mail digests', () => {
  let server: TestServer;
  let a: TestTenant;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let settings: EventSettings;
  const workers: EventWorker[] = [];
  const tomorrow = () => new Date(Date.now() + 86_400_000);
  const nextWeek = () => new Date(Date.now() + 7 * 86_400_000);

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Digest');
    smtp = await startSmtp();
    settings = {
      ...eventSettings({}),
      smtpUrl: smtp.url,
      mailFrom: 'notifications@service.test',
      pollIntervalMs: 3_600_000,
      retryBaseMs: 100,
      publicUrl: server.baseUrl,
      linkSecret: server.jwt.secret,
    };
    // As serve.ts does: the requests' previews link as the worker's mails do.
    useEventSettings(settings);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await smtp?.close();
    await server?.close();
  });
  const worker = (orm = server.orm) => {
    const w = startEventWorker(orm, createLogger('silent'), settings);
    workers.push(w);
    return w;
  };
  /**
   * Every digest of the tenant sent (or found empty): another test's worker, still running, may
   * have claimed one that runOnce then did not see.
   */
  const settled = (tenant = a) =>
    waitFor(async () => {
      const [row] = (await server.orm.em
        .getConnection()
        .execute(
          `select count(*)::int as n from event_delivery where channel = 'DIGEST' and status = 'PENDING' and tenant_id = ?`,
          [tenant.tenantId],
          'all',
        )) as { n: number }[];
      return row.n === 0;
    });

  const userWithDigest = async (frequency: string, extra: Record<string, unknown> = {}, tenant = a) => {
    const u = await tenant.userWith([]);
    const res = await u.client.put('/notifications/settings/me', { digestFrequency: frequency, ...extra });
    expect(res.status).toBe(200);
    return u;
  };
  const notify = async (email: string, title: string, fields: Record<string, unknown> = {}, tenant = a) => {
    const res = await tenant.client.post('/notifications', {
      title,
      body: `About ${title}`,
      username: email,
      ...fields,
    });
    expect(res.status).toBe(201);
  };

  it('two processes racing send each digest once, with the period’s notifications in HTML and text', async () => {
    const u = await userWithDigest('DAILY', { enabledCategories: ['ERP', 'SYSTEM'] });
    await notify(u.email, 'Invoice <42> overdue', {
      category: 'ERP',
      actionUrl: 'https://app.example.test/i/42',
    });
    await notify(u.email, 'Stock is low', { category: 'ERP' });
    await notify(u.email, 'A lead for you', { category: 'CRM' });
    // A second process's view of the database: its own pool, its own worker.
    const other = await openOrm({
      composition: ormComposition,
      clientUrl: await workerDatabaseUrl(),
      poolMax: 4,
      logger: createLogger('silent'),
    });
    const w2 = startEventWorker(other, createLogger('silent'), settings);
    try {
      const w1 = worker();
      const at = tomorrow();
      const scheduled = await Promise.all([scheduleDigests(server.orm, at), scheduleDigests(other, at)]);
      expect(scheduled.reduce((x, y) => x + y, 0)).toBeGreaterThanOrEqual(1);
      await Promise.all([w1.runOnce(), w2.runOnce()]);
      // Again, as every process does every DIGEST_INTERVAL_MS: nothing new.
      await Promise.all([scheduleDigests(server.orm, at), scheduleDigests(other, at)]);
      await Promise.all([w1.runOnce(), w2.runOnce()]);
      await settled();
    } finally {
      await w2.stop();
      await other.close(true);
    }
    const mails = smtp.to(u.email);
    expect(mails).toHaveLength(1);
    const { parsed } = mails[0];
    expect(parsed.subject).toBe('Your daily summary: 2 notifications');
    expect(parsed.text).toContain('Invoice <42> overdue');
    expect(parsed.text).toContain('Stock is low');
    expect(parsed.text).not.toContain('A lead for you');
    expect(parsed.html).toContain('Invoice &lt;42&gt; overdue');
    expect(parsed.html).toContain('href="https://app.example.test/i/42"');
    expect(parsed.html).not.toContain('A lead for you');
    expect(headerOf(mails[0].raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  });

  it('a weekly digest covers the week; none is sent to a user without notifications or with digests off', async () => {
    const weekly = await userWithDigest('WEEKLY');
    const quiet = await userWithDigest('WEEKLY');
    const off = await userWithDigest('OFF');
    await notify(weekly.email, 'Weekly one');
    await notify(off.email, 'Not summarised');
    await scheduleDigests(server.orm, nextWeek());
    await worker().runOnce();
    await settled();
    expect(smtp.to(weekly.email).map((m) => m.parsed.subject)).toEqual([
      'Your weekly summary: 1 notification',
    ]);
    expect(smtp.to(quiet.email)).toHaveLength(0);
    expect(smtp.to(off.email)).toHaveLength(0);
  });

  it('is written in the user’s language', async () => {
    const u = await userWithDigest('DAILY');
    const changed = await a.client.graphql(
      `mutation($id: ID!) { updateUser(id: $id, input: { language: "de-AT" }) { id } }`,
      { id: u.userId },
    );
    expect(changed.body.errors).toBeUndefined();
    await notify(u.email, 'Rechnung fällig');
    await scheduleDigests(server.orm, tomorrow());
    await worker().runOnce();
    await settled();
    const [mail] = smtp.to(u.email);
    expect(mail.parsed.subject).toBe('Ihre tägliche Zusammenfassung: 1 Benachrichtigung');
    expect(mail.parsed.text).toContain('Diese Zusammenfassungen abbestellen');
  });

  it('the unsubscribe link turns digests off without signing in; a forged or expired one is a 400', async () => {
    const u = await userWithDigest('DAILY');
    await notify(u.email, 'Before unsubscribing');
    await scheduleDigests(server.orm, tomorrow());
    await worker().runOnce();
    await settled();
    const [mail] = smtp.to(u.email);
    const link = /(http:\/\/\S+\/unsubscribe\?token=\S+)/.exec(String(mail.parsed.text))![1];
    expect(headerOf(mail.raw, 'List-Unsubscribe')).toBe(`<${link}>`);

    // A click shows a button and changes nothing (mail scanners follow links).
    const shown = await fetch(link, { headers: { accept: 'text/html' } });
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain('<form method="post"');
    expect((await u.client.get('/notifications/settings/me')).body.digestFrequency).toBe('DAILY');

    const token = new URL(link).searchParams.get('token')!;
    const forged = `${token.slice(0, -4)}${token.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    const expired = await unsubscribeToken(
      server.jwt.secret,
      a.tenantId,
      u.userId,
      new Date(Date.now() - 1000),
    );
    const otherKey = await unsubscribeToken('another service secret of enough length', a.tenantId, u.userId);
    for (const [bad, why] of [
      [forged, /not valid/],
      [otherKey, /not valid/],
      [expired, /expired/],
      ['', /not valid/],
    ] as const) {
      const res = await fetch(`${server.baseUrl}/unsubscribe?token=${encodeURIComponent(bad)}`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      const body = { status: res.status, body: await res.json(), headers: res.headers, text: '' };
      expectErrorBody(body as never, 400);
      expect((body.body as { detail: string }).detail).toMatch(why);
    }
    expect((await u.client.get('/notifications/settings/me')).body.digestFrequency).toBe('DAILY');

    // RFC 8058 one-click: what a mail program POSTs.
    const res = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    expect((await u.client.get('/notifications/settings/me')).body.digestFrequency).toBe('OFF');

    // Unsubscribed before the period ends: no digest for it.
    const v = await userWithDigest('DAILY');
    await notify(v.email, 'Never summarised');
    const vLink = `${server.baseUrl}/unsubscribe?token=${await unsubscribeToken(server.jwt.secret, a.tenantId, v.userId)}`;
    const done = await fetch(vLink, { method: 'POST', headers: { accept: 'text/html' } });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('no more notification summaries');
    await scheduleDigests(server.orm, tomorrow());
    await worker().runOnce();
    await settled();
    expect(smtp.to(v.email)).toHaveLength(0);
    expect(smtp.to(u.email)).toHaveLength(1);
  });
  it('can be tried: a preview of the digest as it would go now, and "send my digest now" through the outbox', async () => {
    const u = await userWithDigest('DAILY', { enabledCategories: ['ERP', 'SYSTEM'] });
    const started = Date.now();
    await notify(u.email, 'Order 7 shipped', { category: 'ERP', actionUrl: 'https://app.example.test/o/7' });
    await notify(u.email, 'Not in my categories', { category: 'CRM' });
    await notify(u.email, 'Disk almost full', { category: 'SYSTEM' });

    // The preview sends nothing: the same answer over REST and GraphQL, twice.
    const preview = await u.client.get('/notifications/digest/me');
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      frequency: 'DAILY',
      total: 2,
      subject: 'Your daily summary: 2 notifications',
      notifications: [
        { title: 'Order 7 shipped', category: 'ERP', actionUrl: 'https://app.example.test/o/7' },
        { title: 'Disk almost full', category: 'SYSTEM' },
      ],
    });
    // A first digest covers the period that ended last (yesterday) and what came since.
    expect(Date.parse(preview.body.from)).toBeLessThan(started - 3_600_000);
    expect(Date.parse(preview.body.to)).toBeGreaterThanOrEqual(started);
    expect(preview.body.text).toMatch(/^Here is what happened since /);
    expect(preview.body.html).toContain('href="https://app.example.test/o/7"');
    const gql = await u.client.graphql('{ myDigestPreview { total subject notifications { title } } }');
    expect(gql.body.data.myDigestPreview).toEqual({
      total: 2,
      subject: preview.body.subject,
      notifications: [{ title: 'Order 7 shipped' }, { title: 'Disk almost full' }],
    });
    await worker().runOnce();
    expect(smtp.to(u.email)).toHaveLength(0);

    // Sent now: queued as a DIGEST delivery, mailed by the event worker as the preview showed it.
    const sent = await u.client.post('/notifications/digest/me/send');
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ deliveryId: expect.any(String), digest: { total: 2 } });
    await worker().runOnce();
    await settled();
    const [mail] = smtp.to(u.email);
    expect(smtp.to(u.email)).toHaveLength(1);
    expect(mail.parsed.subject).toBe(sent.body.digest.subject);
    // The same text, but for the unsubscribe link's token, signed at each making.
    const unsigned = (text: string) => text.trim().replace(/token=\S+/, 'token=…');
    expect(unsigned(String(mail.parsed.text))).toBe(unsigned(sent.body.digest.text));
    expect(headerOf(mail.raw, 'List-Unsubscribe')).toMatch(/^<http:\/\/.*\/unsubscribe\?token=/);

    // Nothing since: the preview is empty and a send is refused, saying why.
    const empty = await u.client.get('/notifications/digest/me');
    expect(empty.body).toMatchObject({ total: 0, notifications: [], subject: null, text: null, html: null });
    expect(empty.body.from).toBe(sent.body.digest.to);
    const nothing = await u.client.post('/notifications/digest/me/send');
    expectErrorBody(nothing, 409);
    expect(nothing.body.detail).toMatch(/^nothing to send/);

    // The scheduled digest of the period starts where the one sent now ended: no repeats.
    await notify(u.email, 'After the digest', { category: 'ERP' });
    await scheduleDigests(server.orm, tomorrow());
    await worker().runOnce();
    await settled();
    expect(smtp.to(u.email).map((m) => m.parsed.subject)).toEqual([
      'Your daily summary: 2 notifications',
      'Your daily summary: 1 notification',
    ]);
    expect(String(smtp.to(u.email)[1].parsed.text)).toContain('After the digest');
    expect(String(smtp.to(u.email)[1].parsed.text)).not.toContain('Order 7 shipped');

    // Digests off: nothing would be sent, and a send says how to turn them on.
    const off = await userWithDigest('OFF');
    expect((await off.client.get('/notifications/digest/me')).body).toMatchObject({
      frequency: 'OFF',
      total: 0,
      subject: null,
    });
    const refused = await off.client.post('/notifications/digest/me/send');
    expectErrorBody(refused, 409);
    expect(refused.body.detail).toMatch(/digests are off: set digestFrequency/);
    // A user sees only their own.
    const other = await userWithDigest('DAILY');
    expect((await other.client.get('/notifications/digest/me')).body.total).toBe(0);
  });

  it('periods are days and weeks of the tenant’s time zone, 23 or 25 hours long when clocks change', async () => {
    const periodsAt = async (at: string) => {
      const periods = await asEventWorker(server.orm, (q) =>
        digestPeriods(q, ['Europe/Helsinki', 'Nowhere/Atlantis'], new Date(at)),
      );
      return (zone: string, frequency: string) => {
        const p = periods.find((x) => x.timeZone === zone && x.frequency === frequency)!;
        return [p.from.toISOString(), p.to.toISOString()];
      };
    };
    // Helsinki moves to summer time on Sunday 29 March 2026 and back on Sunday 25 October.
    const spring = await periodsAt('2026-03-30T12:00:00Z');
    expect(spring('Europe/Helsinki', 'DAILY')).toEqual([
      '2026-03-28T22:00:00.000Z',
      '2026-03-29T21:00:00.000Z',
    ]);
    expect(spring('Europe/Helsinki', 'WEEKLY')).toEqual([
      '2026-03-22T22:00:00.000Z',
      '2026-03-29T21:00:00.000Z',
    ]);
    expect(spring('UTC', 'DAILY')).toEqual(['2026-03-29T00:00:00.000Z', '2026-03-30T00:00:00.000Z']);
    expect(spring('UTC', 'WEEKLY')).toEqual(['2026-03-23T00:00:00.000Z', '2026-03-30T00:00:00.000Z']);
    // A zone PostgreSQL does not know gets UTC's periods.
    expect(spring('Nowhere/Atlantis', 'DAILY')).toEqual(spring('UTC', 'DAILY'));
    const autumn = await periodsAt('2026-10-26T12:00:00Z');
    expect(autumn('Europe/Helsinki', 'DAILY')).toEqual([
      '2026-10-24T21:00:00.000Z',
      '2026-10-25T22:00:00.000Z',
    ]);
  });

  it('a tenant’s digest covers its own day; a change of its time zone repeats nothing', async () => {
    const k = await server.tenant('Kiritimati');
    const setZone = (zone: string) =>
      k.client.graphql(
        `mutation($zone: String) { updateTenant(input: { settings: { defaultTimezone: $zone } }) { settings { defaultTimezone } } }`,
        { zone },
      );
    const refused = await setZone('Mars/Olympus_Mons');
    expect(refused.body.errors?.[0].message).toBe(
      'settings.defaultTimezone: "Mars/Olympus_Mons" is not an IANA time zone',
    );
    expect(refused.body.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
    // UTC+14 all year: its day ends ten hours before UTC's.
    expect((await setZone('Pacific/Kiritimati')).body.errors).toBeUndefined();
    const u = await userWithDigest('DAILY', {}, k);
    await notify(u.email, 'Morning in the Line Islands', {}, k);
    const notified = Date.now();
    const local = new Date(Date.now() + 14 * 3_600_000);
    const localDayEnd = new Date(
      Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + 1) - 14 * 3_600_000,
    );
    const digestsOf = async () =>
      (await server.orm.em.getConnection().execute(
        `select target->>'from' as "from", target->>'to' as "to" from event_delivery
           where channel = 'DIGEST' and tenant_id = ? order by target->>'to'`,
        [k.tenantId],
        'all',
      )) as { from: string; to: string }[];

    await scheduleDigests(server.orm, new Date(localDayEnd.getTime() + 60_000));
    await worker().runOnce();
    await settled(k);
    expect(await digestsOf()).toEqual([
      {
        from: new Date(localDayEnd.getTime() - 86_400_000).toISOString(),
        to: localDayEnd.toISOString(),
      },
    ]);
    expect(smtp.to(u.email).map((m) => m.parsed.subject)).toEqual(['Your daily summary: 1 notification']);

    // The UTC day that holds the notification overlaps the day just summarised: its digest starts
    // where that one ended, so the notification is not sent again.
    expect((await setZone('UTC')).body.errors).toBeUndefined();
    const utcDayEnd = new Date(Math.ceil(notified / 86_400_000) * 86_400_000);
    await scheduleDigests(server.orm, new Date(utcDayEnd.getTime() + 60_000));
    await worker().runOnce();
    await settled(k);
    expect(await digestsOf()).toHaveLength(1);
    expect(smtp.to(u.email)).toHaveLength(1);
  });
});
