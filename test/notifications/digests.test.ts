import { createLogger } from '../../src/logger';
import { openOrm } from '../../src/db/orm';
import { scheduleDigests, unsubscribeToken } from '../../src/events/digest';
import { eventSettings, type EventSettings } from '../../src/events/settings';
import { startEventWorker, type EventWorker } from '../../src/events/worker';
import { workerDatabaseUrl } from '../support/database';
import { expectErrorBody } from '../support/http';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { waitFor } from '../events/receiver';
import { startSmtp } from '../support/smtp';

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
  const settled = () =>
    waitFor(async () => {
      const [row] = (await server.orm.em
        .getConnection()
        .execute(
          `select count(*)::int as n from event_delivery where channel = 'DIGEST' and status = 'PENDING' and tenant_id = ?`,
          [a.tenantId],
          'all',
        )) as { n: number }[];
      return row.n === 0;
    });

  const userWithDigest = async (frequency: string, extra: Record<string, unknown> = {}) => {
    const u = await a.userWith([]);
    const res = await u.client.put('/notifications/settings/me', { digestFrequency: frequency, ...extra });
    expect(res.status).toBe(200);
    return u;
  };
  const notify = async (email: string, title: string, fields: Record<string, unknown> = {}) => {
    const res = await a.client.post('/notifications', {
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
});
