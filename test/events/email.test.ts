import { createLogger } from '../../src/logger';
import { eventSettings, type EventSettings } from '../../src/events/settings';
import { startEventWorker, type EventWorker } from '../../src/events/worker';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { startSmtp } from '../support/smtp';
import { waitFor } from './receiver';

describe('notification e-mail', () => {
  let server: TestServer;
  let a: TestTenant;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let worker: EventWorker | undefined;
  const settingsWith = (smtpUrl: string | undefined): EventSettings => ({
    ...eventSettings({}),
    smtpUrl,
    mailFrom: 'notifications@service.test',
    retryBaseMs: 100,
    retryMaxMs: 200,
    pollIntervalMs: 50,
  });

  /** The recipient whose first message the SMTP server refuses. */
  let refused = '';

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Mail');
    smtp = await startSmtp(1, (to) => to.includes(refused));
  }, 120_000);
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
  });
  afterAll(async () => {
    await smtp.close();
    await server.close();
  });

  const notify = async (email: string, title: string) => {
    const res = await a.client.post('/notifications', {
      title,
      body: 'Invoice 42 is due',
      username: email,
      category: 'ERP',
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const mine = async (user: { client: TestTenant['client'] }, id: string) =>
    (await user.client.get('/notifications/me')).body.content.find((n: { id: string }) => n.id === id);

  it('e-mails a notification whose recipient asked for e-mail, retrying a refusal, and marks it sent', async () => {
    const wants = await a.userWith([]);
    const quiet = await a.userWith([]);
    refused = wants.email;
    const put = await wants.client.put('/notifications/settings/me', { emailNotificationsEnabled: true });
    expect(put.status).toBe(200);
    expect(put.body.emailNotificationsEnabled).toBe(true);

    worker = startEventWorker(server.orm, createLogger('silent'), settingsWith(smtp.url));
    const id = await notify(wants.email, 'Payment due');
    const quietId = await notify(quiet.email, 'Not by mail');

    const [mail] = await waitFor(() => smtp.to(wants.email).length > 0 && smtp.to(wants.email));
    expect(mail.to).toEqual([wants.email]);
    expect(mail.raw).toContain('Subject: Payment due');
    expect(mail.raw).toContain('Invoice 42 is due');
    expect(mail.raw).toContain('From: notifications@service.test');
    expect(smtp.offeredTo(wants.email)).toBe(2);

    const sent = await waitFor(async () => {
      const n = await mine(wants, id);
      return n?.emailSent && n;
    });
    expect(sent.emailSentAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    await worker.runOnce();
    expect(smtp.to(wants.email)).toHaveLength(1);
    expect(smtp.to(quiet.email)).toHaveLength(0);
    expect((await mine(quiet, quietId)).emailSent).toBe(false);
  });

  it('without SMTP_URL writes the e-mail to the log and leaves emailSent false', async () => {
    const wants = await a.userWith([]);
    await wants.client.put('/notifications/settings/me', { emailNotificationsEnabled: true });
    worker = startEventWorker(server.orm, createLogger('silent'), settingsWith(undefined));
    const id = await notify(wants.email, 'Logged only');
    const rows = await waitFor(async () => {
      const found = (await server.orm.em.getConnection().execute(
        `select d.status from event_delivery d join outbox_event o on o.tenant_id = d.tenant_id and o.id = d.event_id
           where d.channel = 'EMAIL' and o.resource_id = ?`,
        [id],
        'all',
      )) as { status: string }[];
      return found[0]?.status === 'DELIVERED' && found;
    });
    expect(rows).toHaveLength(1);
    expect((await mine(wants, id)).emailSent).toBe(false);
    expect(smtp.to(wants.email)).toHaveLength(0);
  });

  it('sends many at once, through the same leased delivery as webhooks: each once, each marked sent', async () => {
    const wants = await a.userWith([]);
    await wants.client.put('/notifications/settings/me', { emailNotificationsEnabled: true });
    const titles = Array.from({ length: 8 }, (_, i) => `Batch mail ${i}`);
    const ids: string[] = [];
    for (const title of titles) ids.push(await notify(wants.email, title));
    worker = startEventWorker(server.orm, createLogger('silent'), {
      ...settingsWith(smtp.url),
      concurrency: 8,
    });
    await waitFor(async () => {
      const mine_ = await Promise.all(ids.map((id) => mine(wants, id)));
      return mine_.every((n) => n?.emailSent);
    });
    const sent = smtp.to(wants.email).map((m) => /Subject: (.*)/.exec(m.raw)?.[1]);
    expect(sent.sort()).toEqual([...titles].sort());
    const rows = (await server.orm.em.getConnection().execute(
      `select d.status, d.attempts, d.locked_by from event_delivery d
         join outbox_event o on o.tenant_id = d.tenant_id and o.id = d.event_id
       where d.channel = 'EMAIL' and o.resource_id in (${ids.map(() => '?').join(', ')})`,
      ids,
      'all',
    )) as { status: string; attempts: number; locked_by: string | null }[];
    expect(rows).toEqual(ids.map(() => ({ status: 'DELIVERED', attempts: 1, locked_by: null })));
  });
});
