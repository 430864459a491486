import { randomBytes } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { wrap } from '@mikro-orm/core';
import { withTenant } from '../../src/db/tenant-transaction';
import { Mailbox } from '../../src/domain/crm/entities/mailbox';
import { enabledMailboxes } from '../../src/domain/crm/mailboxes';
import { pollMailboxes } from '../../src/domain/crm/mailbox-poll';
import { receiveMessage } from '../../src/domain/crm/inbound-mail';
import { createLogger } from '../../src/logger';
import { eventSettings } from '../../src/events/settings';
import { startEventWorker, type EventWorker } from '../../src/events/worker';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody } from '../support/http';
import { startSmtp } from '../support/smtp';
import { DOVECOT, startImap, type ImapServer } from '../support/imap-server';
import { describeWithTool } from '../support/debian-tools';
import { waitFor } from '../events/receiver';
import { idleTransactions, workerDatabaseUrl } from '../support/database';
import { childEnv, cliCommands, randomSecret } from '../support/process';
import { heldStore } from '../support/files';
import { gql } from './support';

const INBOX = '/communications/inbox';
const logger = createLogger('silent');

/** A message as a mail program writes it, CRLF line ends. */
const message = (headers: Record<string, string>, body: string) =>
  [...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), '', body, ''].join('\r\n');

const withAttachment = (
  headers: Record<string, string>,
  text: string,
  file: { name: string; content: string },
) =>
  message(
    { ...headers, 'MIME-Version': '1.0', 'Content-Type': 'multipart/mixed; boundary="b1"' },
    [
      '--b1',
      'Content-Type: text/plain; charset=utf-8',
      '',
      text,
      '--b1',
      `Content-Type: text/plain; name="${file.name}"`,
      `Content-Disposition: attachment; filename="${file.name}"`,
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from(file.content).toString('base64'),
      '--b1--',
    ].join('\r\n'),
  );

describeWithTool(
  DOVECOT,
  'dovecot-imapd',
  'mail coming in over IMAP',
)('Mail in: IMAP, the raw endpoint, replies', () => {
  let server: TestServer;
  let a: TestTenant;
  let b: TestTenant;
  let imap: ImapServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let worker: EventWorker | undefined;
  const keyBefore = process.env.MAILBOX_SECRET_KEY;

  /** A mailbox of the tenant on the test's IMAP account. */
  const connectMailbox = (t: TestTenant) =>
    t.client.post('/communications/mailboxes', {
      host: imap.host,
      port: imap.port,
      secure: false,
      username: imap.user,
      password: imap.password,
    });
  /** A poll as the scheduled job runs it: from outside any transaction. */
  const poll = (t: TestTenant) => pollMailboxes(server.orm.em.fork(), t.tenantId, server.app.files, logger);
  /** Bytes as sent, outside the JSON client (whose document check reads JSON bodies only). */
  const send = async (token: string, method: string, path: string, body?: string, type?: string) => {
    const res = await fetch(`${server.baseUrl}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(type ? { 'content-type': type } : {}) },
      body,
    });
    const text = await res.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, body: json };
  };
  const inbox = async (t: TestTenant) => (await t.client.get(`${INBOX}/find-all`)).body as any[];

  beforeAll(async () => {
    process.env.MAILBOX_SECRET_KEY = randomBytes(32).toString('hex');
    server = await startServer();
    a = await server.tenant('Mail in A');
    b = await server.tenant('Mail in B');
    imap = await startImap();
    smtp = await startSmtp();
  });
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
  });
  afterAll(async () => {
    process.env.MAILBOX_SECRET_KEY = keyBefore;
    await imap?.close();
    await smtp?.close();
    await server?.close();
  });

  it('a mailbox: password write-only, stored encrypted; without MAILBOX_SECRET_KEY it is refused (409)', async () => {
    const key = process.env.MAILBOX_SECRET_KEY;
    delete process.env.MAILBOX_SECRET_KEY;
    try {
      expectErrorBody(
        await b.client.post('/communications/mailboxes', {
          host: 'imap.example.test',
          username: 'x',
          password: 'p',
        }),
        409,
      );
    } finally {
      process.env.MAILBOX_SECRET_KEY = key;
    }
    expectErrorBody(
      await b.client.post('/communications/mailboxes', { host: '', username: 'x', password: 'p' }),
      400,
    );
    const created = await b.client.post('/communications/mailboxes', {
      host: 'imap.example.test',
      username: 'sales',
      password: 'secret-password',
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      host: 'imap.example.test',
      port: 993,
      secure: true,
      folder: 'INBOX',
    });
    expect(created.text).not.toContain('secret-password');
    expect(JSON.stringify(created.body)).not.toMatch(/password/i);
    const [row] = await server.orm.em
      .fork()
      .getConnection()
      .execute(`select password_encrypted from mailbox where id = ?`, [created.body.id]);
    expect(row.password_encrypted).not.toContain('secret-password');
    // The record reads the password only when asked for it (the job), and never serializes it;
    // it is no record with a history: no history entry, no event.
    await withTenant(
      server.orm.em,
      { tenantId: b.tenantId, userId: null, email: 'crm.mailboxes' },
      async (em) => {
        const read = await em.findOneOrFail(Mailbox, { id: created.body.id });
        expect(read.passwordEncrypted).toBeUndefined();
        const [polled] = await enabledMailboxes(em, b.tenantId);
        expect(polled.passwordEncrypted).toBe(row.password_encrypted);
        expect(wrap(polled).toObject()).not.toHaveProperty('passwordEncrypted');
      },
    );
    const [traces] = await server.orm.em
      .fork()
      .getConnection()
      .execute(
        `select (select count(*) from record_history where record_id = ?)::int as history,
                (select count(*) from outbox_event where resource_id = ?)::int as events`,
        [created.body.id, created.body.id],
      );
    expect(traces).toEqual({ history: 0, events: 0 });
    const listed = await b.client.get('/communications/mailboxes');
    expect(listed.body.map((m: any) => m.id)).toEqual([created.body.id]);
    expect(listed.text).not.toMatch(/password/i);
    expect((await a.client.get('/communications/mailboxes')).body).toEqual([]);
    expectErrorBody(await a.client.delete(`/communications/mailboxes/${created.body.id}`), 404);
    expect((await b.client.delete(`/communications/mailboxes/${created.body.id}`)).status).toBe(204);
  });

  it('IMAP: a message appended is stored once, linked to its lead, its owner notified, its attachment a file', async () => {
    const owner = await a.userWith(['READ_LEADS']);
    const lead = (
      await gql(a.client, `mutation($input: LeadInput!) { createLead(input: $input) { id } }`, {
        input: { firstName: 'Lea', email: 'Lea@Prospect.test', ownerId: owner.userId },
      })
    ).createLead;
    expect((await connectMailbox(a)).status).toBe(200);
    await imap.append(
      withAttachment(
        {
          From: 'Lea <lea@prospect.test>',
          To: 'sales@tenant.test',
          Subject: 'Quote please',
          'Message-ID': '<first@prospect.test>',
          Date: new Date().toUTCString(),
        },
        'Could you send a quote?',
        { name: 'wishes.txt', content: 'Ten chairs, two tables.' },
      ),
    );
    expect(await poll(a)).toBe(1);
    expect(await poll(a)).toBe(0);
    const [email] = await inbox(a);
    expect(await inbox(a)).toHaveLength(1);
    expect(email).toMatchObject({
      status: 'NEW',
      fromEmail: 'lea@prospect.test',
      fromName: 'Lea',
      subject: 'Quote please',
      recipients: ['sales@tenant.test'],
      internetMessageId: '<first@prospect.test>',
      conversationId: '<first@prospect.test>',
      parentCommunicationId: null,
      relatedEntityId: lead.id,
      relatedEntityType: 'LEAD',
    });
    expect(email.bodyText).toContain('Could you send a quote?');
    expect(email.attachments).toEqual([expect.objectContaining({ name: 'wishes.txt', fileSize: 23 })]);
    const file = await send(a.token, 'GET', `/files/${email.attachments[0].blobId}`);
    expect(file.status).toBe(200);
    expect(file.text).toBe('Ten chairs, two tables.');
    expect((await send(b.token, 'GET', `/files/${email.attachments[0].blobId}`)).status).toBe(404);

    const notes = (await owner.client.get('/notifications/me?pageSize=100')).body.content as any[];
    expect(notes.filter((n) => n.scope === 'inbox.received').map((n) => n.title)).toEqual([
      'New e-mail from Lea',
    ]);
    const status = (await a.client.get('/communications/mailboxes')).body[0];
    expect(status).toMatchObject({ lastError: null, lastPolledAt: expect.any(String) });
  });

  it('a reply goes out through the outbox with In-Reply-To; answers thread onto the SentMail and earlier e-mails', async () => {
    const [first] = await inbox(a);
    worker = startEventWorker(server.orm, logger, {
      ...eventSettings({}),
      smtpUrl: smtp.url,
      mailFrom: 'sales@tenant.test',
      retryBaseMs: 100,
      retryMaxMs: 200,
      pollIntervalMs: 50,
    });
    const replied = await a.client.post(`${INBOX}/${first.id}/reply`, { body: 'Here is our quote.' });
    expect(replied.status).toBe(200);
    expect(replied.body).toMatchObject({ recipient: 'lea@prospect.test', subject: 'Re: Quote please' });
    const sent = replied.body;
    expect(sent.messageId).toMatch(/^<.+@tenant\.test>$/);
    const [mail] = await waitFor(
      () => smtp.to('lea@prospect.test').length > 0 && smtp.to('lea@prospect.test'),
    );
    expect(mail.parsed.inReplyTo).toBe('<first@prospect.test>');
    expect(mail.parsed.messageId).toBe(sent.messageId);
    expect(mail.parsed.text).toContain('Here is our quote.');
    expect((await a.client.get(`${INBOX}/find/${first.id}`)).body.status).toBe('REPLIED');

    await imap.append(
      message(
        {
          From: 'lea@prospect.test',
          To: 'sales@tenant.test',
          Subject: 'Re: Quote please',
          'Message-ID': '<second@prospect.test>',
          'In-Reply-To': sent.messageId,
          References: `<first@prospect.test> ${sent.messageId}`,
        },
        'Thanks, accepted.',
      ),
    );
    await imap.append(
      message(
        {
          From: 'colleague@prospect.test',
          To: 'sales@tenant.test',
          Subject: 'Re: Quote please',
          'Message-ID': '<third@prospect.test>',
          'In-Reply-To': '<first@prospect.test>',
        },
        'Me too.',
      ),
    );
    expect(await poll(a)).toBe(2);
    const byId = new Map((await inbox(a)).map((e) => [e.internetMessageId, e]));
    expect(byId.get('<second@prospect.test>')).toMatchObject({
      parentCommunicationId: sent.id,
      conversationId: '<first@prospect.test>',
      inReplyTo: sent.messageId,
    });
    expect(byId.get('<third@prospect.test>')).toMatchObject({
      parentCommunicationId: first.id,
      conversationId: '<first@prospect.test>',
      relatedEntityId: null,
    });
  });

  it('POST /communications/inbox/messages: message/rfc822 or base64, once per Message-ID, 400, tenants apart', async () => {
    const gateway = await a.userWith(['CREATE_INBOX']);
    const raw = message(
      {
        From: 'Carl <carl@customer.test>',
        To: 'info@tenant.test',
        Subject: 'Hello',
        'Message-ID': '<raw-1@customer.test>',
      },
      'Raw body.',
    );
    const res = await send(gateway.token, 'POST', `${INBOX}/messages`, raw, 'message/rfc822');
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/api/v1${INBOX}/find/${res.body.id}`);
    expect(res.body).toMatchObject({ fromEmail: 'carl@customer.test', subject: 'Hello', status: 'NEW' });
    const again = await gateway.client.post(
      `${INBOX}/messages`,
      JSON.stringify(Buffer.from(raw).toString('base64')),
      {
        'content-type': 'application/json',
      },
    );
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(res.body.id);
    expectErrorBody(
      await send(gateway.token, 'POST', `${INBOX}/messages`, 'no headers at all', 'message/rfc822'),
      400,
    );
    expectErrorBody(
      await gateway.client.post(`${INBOX}/messages`, JSON.stringify('%%%'), {
        'content-type': 'application/json',
      }),
      400,
    );
    const reader = await a.userWith(['READ_INBOX']);
    expectErrorBody(await send(reader.token, 'POST', `${INBOX}/messages`, raw, 'message/rfc822'), 403);
    expectErrorBody(await b.client.get(`${INBOX}/find/${res.body.id}`), 404);
    expect((await inbox(b)).map((e) => e.id)).not.toContain(res.body.id);
    // The same message in another tenant is that tenant's own e-mail.
    const other = await send(b.token, 'POST', `${INBOX}/messages`, raw, 'message/rfc822');
    expect(other.status).toBe(201);
    expect(other.body.id).not.toBe(res.body.id);
    const admins = (await a.client.get('/notifications/me?pageSize=100')).body.content as any[];
    expect(admins.some((n) => n.scope === 'inbox.received' && n.title === 'New e-mail from Carl')).toBe(true);
  });

  it("bms jobs:run crm.mailboxes reads the mailboxes at once, with the service's file store", async () => {
    const env = childEnv({
      DATABASE_URL: await workerDatabaseUrl(),
      JWT_SECRET: randomSecret(),
      FILES_DIR: server.app.files.settings.dir,
      MAILBOX_SECRET_KEY: process.env.MAILBOX_SECRET_KEY,
    });
    const { ok } = cliCommands(() => env);
    await imap.append(
      withAttachment(
        {
          From: 'lea@prospect.test',
          To: 'sales@tenant.test',
          Subject: 'From the job',
          'Message-ID': '<job@prospect.test>',
        },
        'Via the command line.',
        { name: 'job.txt', content: 'bytes read by the job' },
      ),
    );
    const runs = await ok(
      'jobs:run',
      'crm.mailboxes',
      '--tenant',
      a.tenantId,
      '--now',
      new Date().toISOString(),
    );
    expect(runs).toEqual([
      expect.objectContaining({ job: 'crm.mailboxes', tenantId: a.tenantId, outcome: 'ok', items: 1 }),
    ]);
    const email = (await inbox(a)).find((e) => e.internetMessageId === '<job@prospect.test>');
    expect(email).toMatchObject({ relatedEntityType: 'LEAD', subject: 'From the job' });
    expect((await send(a.token, 'GET', `/files/${email.attachments[0].blobId}`)).text).toBe(
      'bytes read by the job',
    );
    expect((await ok('jobs:run', 'crm.mailboxes', '--tenant', a.tenantId))[0].items).toBe(0);
  });

  it('one message stored at once by two transactions is stored once: the second answers the first', async () => {
    const t = await server.tenant('Mail in race');
    const raw = Buffer.from(
      message({ From: 'race@example.test', Subject: 'Twice', 'Message-ID': '<race@example.test>' }, 'Once.'),
    );
    const store = () =>
      receiveMessage(
        (work) =>
          withTenant(server.orm.em, { tenantId: t.tenantId, userId: null, email: 'crm.mailboxes' }, work),
        { tenantId: t.tenantId, userId: null },
        raw,
      );
    const [one, two] = await Promise.all([store(), store()]);
    expect([one.created, two.created].sort()).toEqual([false, true]);
    expect(one.email.id).toBe(two.email.id);
    expect((await inbox(t)).map((e) => e.internetMessageId)).toEqual(['<race@example.test>']);
  });

  it('a mailbox that cannot be read says why in lastError; the other mailboxes are still read', async () => {
    const t = await server.tenant('Mail in errors');
    const account = { host: imap.host, port: imap.port, secure: false, username: imap.user };
    const wrong = await t.client.post('/communications/mailboxes', {
      ...account,
      password: 'not-the-password',
    });
    const other = await t.client.post('/communications/mailboxes', {
      ...account,
      password: imap.password,
      folder: 'Other',
    });
    expect([wrong.status, other.status]).toEqual([200, 200]);
    expectErrorBody(
      await t.client.post('/communications/mailboxes', { ...account, password: imap.password }),
      409,
    );
    // Over the 1 MiB a message may have: passed over, not downloaded, and not read again.
    await imap.append(
      message(
        { From: 'big@example.test', Subject: 'Too big', 'Message-ID': '<big@example.test>' },
        'x'.repeat(1100 * 1024),
      ),
      'Other',
    );
    await imap.append(
      message(
        { From: 'other@example.test', Subject: 'In Other', 'Message-ID': '<other@example.test>' },
        'Hi.',
      ),
      'Other',
    );
    expect(await poll(t)).toBe(1);
    const byId = new Map(
      ((await t.client.get('/communications/mailboxes')).body as any[]).map((m) => [m.id, m]),
    );
    expect(byId.get(wrong.body.id).lastError).toEqual(expect.any(String));
    expect(byId.get(other.body.id).lastError).toBeNull();
    expect((await inbox(t)).map((e) => e.subject)).toEqual(['In Other']);
    // Put right, it is read from its first message; what is stored already stays once.
    const fixed = await t.client.patch(`/communications/mailboxes/${wrong.body.id}`, {
      password: imap.password,
    });
    expect(fixed.status).toBe(200);
    expect(await poll(t)).toBeGreaterThan(0);
    expect(
      ((await t.client.get('/communications/mailboxes')).body as any[]).every((m) => m.lastError === null),
    ).toBe(true);
    expect(await poll(t)).toBe(0);
  });
  it('holds no transaction while an IMAP server keeps the poll waiting: the tenant is served meanwhile', async () => {
    const t = await server.tenant('Mail in silent');
    // Takes connections and never greets: the poll waits on it up to its connect timeout.
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as { port: number }).port;
      const box = await t.client.post('/communications/mailboxes', {
        host: '127.0.0.1',
        port,
        secure: false,
        username: 'nobody',
        password: 'p',
      });
      expect(box.status).toBe(200);
      const polling = poll(t);
      await waitFor(() => sockets.size > 0);
      expect(await idleTransactions(server.orm)).toBe(0);
      // On the embedded database a transaction held by the poll would queue this until it ends.
      expect((await t.client.get('/communications/mailboxes')).status).toBe(200);
      for (const socket of sockets) socket.destroy();
      expect(await polling).toBe(0);
      const [mailbox] = (await t.client.get('/communications/mailboxes')).body as any[];
      expect(mailbox.lastError).toEqual(expect.any(String));
    } finally {
      silent.close();
    }
  });

  it('holds no transaction while a slow file store writes an attachment; a message stored already writes none', async () => {
    const t = await server.tenant('Mail in slow store');
    expect((await connectMailbox(t)).status).toBe(200);
    await imap.append(
      withAttachment(
        { From: 'slow@prospect.test', Subject: 'Slow store', 'Message-ID': '<slow-store@prospect.test>' },
        'Plans attached.',
        { name: 'plans.txt', content: 'Three floors.' },
      ),
    );
    const held = heldStore(server.app.files);
    const polling = pollMailboxes(server.orm.em.fork(), t.tenantId, held.store, logger);
    try {
      // A poll that ends or fails before it writes says so here, rather than as the test's timeout.
      const first = await Promise.race([
        held.writing.then(() => 'a write'),
        polling.then(
          (stored) => `the poll's end (${stored} stored)`,
          (err) => `the poll's failure: ${err}`,
        ),
      ]);
      expect(first).toBe('a write');
      expect(await idleTransactions(server.orm)).toBe(0);
      // On the embedded database a transaction held meanwhile would queue this until it ends.
      expect((await t.client.get('/communications/mailboxes')).status).toBe(200);
    } finally {
      held.letThrough();
    }
    expect(await polling).toBeGreaterThanOrEqual(1);
    const email = (await inbox(t)).find((e) => e.internetMessageId === '<slow-store@prospect.test>');
    expect(email.attachments).toEqual([expect.objectContaining({ name: 'plans.txt', fileSize: 13 })]);
    expect((await send(t.token, 'GET', `/files/${email.attachments[0].blobId}`)).text).toBe('Three floors.');
    // Handed over again (a gateway's retry), the stored message answers and nothing is written.
    const writes = held.puts.length;
    const again = await receiveMessage(
      (work) =>
        withTenant(server.orm.em, { tenantId: t.tenantId, userId: null, email: 'crm.mailboxes' }, work),
      { tenantId: t.tenantId, userId: null, files: held.store },
      Buffer.from(
        withAttachment(
          { From: 'slow@prospect.test', Subject: 'Slow store', 'Message-ID': '<slow-store@prospect.test>' },
          'Plans attached.',
          { name: 'plans.txt', content: 'Three floors.' },
        ),
      ),
    );
    expect(again).toMatchObject({ created: false, email: { id: email.id } });
    expect(held.puts.length).toBe(writes);
  });
});
