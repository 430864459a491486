import { startServer, type TestServer, type TestTenant } from '../support/server';
import type { Client } from '../support/http';
import { expectErrorBody } from '../support/http';
import { audited, eventLines, gql, gqlErrorStatus, ISO, UNKNOWN_ID } from './support';

const BASE = '/communications/inbox';

const INGEST = `mutation($input: IngestInboundEmailInput!) { ingestInboundEmail(input: $input) { id status receivedAt } }`;
const UPDATE = `mutation($id: ID!, $input: InboundEmailInput!) { updateInboundEmail(id: $id, input: $input) { status events { type description } } }`;

describe('Inbox', () => {
  let server: TestServer;
  let a: TestTenant;
  let b: TestTenant;

  const ingest = async (client: Client, input: object) =>
    (await gql(client, INGEST, { input })).ingestInboundEmail;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Inbox A');
    b = await server.tenant('Inbox B');
  });
  afterAll(() => server.close());

  it('ingestInboundEmail stores a NEW e-mail received now, with every documented field', async () => {
    const before = Date.now();
    const mail = await ingest(a.client, {
      fromEmail: 'customer@example.test',
      fromName: 'A Customer',
      subject: 'Question',
      bodyText: 'Hello',
      bodyHtml: '<p>Hello</p>',
      recipients: ['sales@tenant.test'],
      cc: ['boss@tenant.test', 'team@tenant.test'],
      internetMessageId: '<abc@mail.example.test>',
      conversationId: 'conv-1',
    });
    expect(mail.status).toBe('NEW');
    expect(new Date(mail.receivedAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
    const res = await a.client.get(`${BASE}/find/${mail.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...audited(a),
      id: mail.id,
      status: 'NEW',
      receivedAt: expect.stringMatching(ISO),
      subject: 'Question',
      bodyHtml: '<p>Hello</p>',
      bodyText: 'Hello',
      fromEmail: 'customer@example.test',
      fromName: 'A Customer',
      recipients: ['sales@tenant.test'],
      cc: ['boss@tenant.test', 'team@tenant.test'],
      conversationId: 'conv-1',
      graphMessageId: null,
      inReplyTo: null,
      internetMessageId: '<abc@mail.example.test>',
      parentCommunicationId: null,
      relatedEntityId: null,
      relatedEntityType: null,
      attachments: [],
    });
    expect(eventLines(res.body)).toEqual([expect.stringMatching(/^CREATE/)]);

    const minimal = await ingest(a.client, {
      fromEmail: 'x@example.test',
      receivedAt: '2026-01-01T08:00:00Z',
    });
    const shown = (await a.client.get(`${BASE}/find/${minimal.id}`)).body;
    expect(shown).toMatchObject({
      receivedAt: '2026-01-01T08:00:00.000Z',
      recipients: [],
      cc: [],
      subject: null,
    });
  });

  it('ingesting a Message-ID twice keeps one e-mail; bad input is 400; CREATE_INBOX is needed', async () => {
    const first = await ingest(a.client, { fromEmail: 'dup@example.test', internetMessageId: '<dup@x>' });
    const second = await ingest(a.client, { fromEmail: 'dup@example.test', internetMessageId: '<dup@x>' });
    expect(second.id).toBe(first.id);
    const created = await a.client.graphql(
      `mutation { createInboundEmail(input: { fromEmail: "dup@example.test", internetMessageId: "<dup@x>" }) { id } }`,
    );
    expect(created.body.errors?.[0].extensions?.status).toBe(409);
    expect(await gqlErrorStatus(a.client, UPDATE, { id: first.id, input: { receivedAt: null } })).toBe(400);
    expect(await gqlErrorStatus(a.client, INGEST, { input: { subject: 'no sender' } })).toBe(400);
    expect(await gqlErrorStatus(a.client, INGEST, { input: { fromEmail: 'not-mail' } })).toBe(400);
    expect(await gqlErrorStatus(a.client, INGEST, { input: { fromEmail: 'a@b.test', status: 'READ' } })).toBe(
      400,
    );
    expect(
      await gqlErrorStatus(a.client, INGEST, { input: { fromEmail: 'a@b.test', relatedEntityId: 'x' } }),
    ).toBe(400);
    const reader = await a.userWith(['READ_INBOX']);
    expect(await gqlErrorStatus(reader.client, INGEST, { input: { fromEmail: 'a@b.test' } })).toBe(403);
    const gateway = await a.userWith(['CREATE_INBOX']);
    expect((await ingest(gateway.client, { fromEmail: 'gw@example.test' })).status).toBe('NEW');
  });

  it('GET /unread-count counts NEW as unread, all as total, and each status; it follows updates', async () => {
    const t = await server.tenant('Inbox counts');
    const zero = await t.client.get(`${BASE}/unread-count`);
    expect(zero.status).toBe(200);
    expect(zero.body).toEqual({ unread: 0, total: 0, NEW: 0, READ: 0, ARCHIVED: 0, REPLIED: 0 });
    const x = await ingest(t.client, { fromEmail: 'x@example.test' });
    await ingest(t.client, { fromEmail: 'y@example.test' });
    await ingest(t.client, { fromEmail: 'z@example.test' });
    expect((await t.client.get(`${BASE}/unread-count`)).body).toEqual({
      unread: 3,
      total: 3,
      NEW: 3,
      READ: 0,
      ARCHIVED: 0,
      REPLIED: 0,
    });
    const read = await gql(t.client, UPDATE, { id: x.id, input: { status: 'READ' } });
    expect(eventLines(read.updateInboundEmail)).toEqual([
      expect.stringMatching(/^CREATE/),
      'STATUS_CHANGE: NEW -> READ',
    ]);
    expect((await t.client.get(`${BASE}/unread-count`)).body).toEqual({
      unread: 2,
      total: 3,
      NEW: 2,
      READ: 1,
      ARCHIVED: 0,
      REPLIED: 0,
    });
    await gql(t.client, UPDATE, { id: x.id, input: { status: 'ARCHIVED' } });
    expect((await t.client.get(`${BASE}/unread-count`)).body).toMatchObject({
      unread: 2,
      READ: 0,
      ARCHIVED: 1,
    });
    expect(await gqlErrorStatus(t.client, UPDATE, { id: x.id, input: { status: null } })).toBe(400);
  });

  it('the family: find (ids optional), find-all, find/{id}, find-list, page, dynamic search, CSV, deletes', async () => {
    const t = await server.tenant('Inbox family');
    const x = await ingest(t.client, { fromEmail: 'xavier@example.test', subject: 'Invoice' });
    const y = await ingest(t.client, {
      fromEmail: 'yara@example.test',
      subject: '+Quote',
      recipients: ['sales@t.test'],
    });
    const z = await ingest(t.client, { fromEmail: 'zed@example.test', subject: 'Spam' });

    const noIds = await t.client.get(`${BASE}/find`);
    expect(noIds.status).toBe(200);
    expect(noIds.body).toEqual([]);
    expect(
      (await t.client.get(`${BASE}/find?ids=${y.id},${UNKNOWN_ID},${x.id}`)).body.map((m: any) => m.id),
    ).toEqual([y.id, x.id]);
    expect((await t.client.get(`${BASE}/find-all`)).body.map((m: any) => m.id)).toEqual([x.id, y.id, z.id]);
    expect((await t.client.get(`${BASE}/find-list`)).body).toEqual([]);
    expect((await t.client.get(`${BASE}/find-list?ids=${z.id}`)).body.map((m: any) => m.id)).toEqual([z.id]);
    expectErrorBody(await t.client.get(`${BASE}/find/${UNKNOWN_ID}`), 404);

    const page = await t.client.get(`${BASE}/page?search=example&sortBy=subject&direction=ASC&pageSize=2`);
    expect(page.body).toMatchObject({ totalElements: 3, totalPages: 2, numberOfElements: 2 });
    expect(page.body.content.map((m: any) => m.subject)).toEqual(['+Quote', 'Invoice']);

    const get = await t.client.get(`${BASE}/dynamic-search?filters=recipients:eq:sales@t.test`);
    expect(get.body.content.map((m: any) => m.id)).toEqual([y.id]);
    const post = await t.client.post(`${BASE}/dynamic-search`, {
      filters: { status: ['NEW'], fromEmail: { startsWith: 'z' } },
    });
    expect(post.body.content.map((m: any) => m.id)).toEqual([z.id]);

    const csv = await t.client.get(`${BASE}/csv-export?sort=subject,asc`);
    const lines = (csv.body as string).split('\r\n').filter((l) => l.length > 0);
    expect(lines).toHaveLength(4);
    expect(lines[0].split(',')).toEqual(expect.arrayContaining(['fromEmail', 'recipients', 'cc', 'status']));
    expect(csv.body).toContain(`'+Quote`);

    expect((await t.client.delete(`${BASE}/${z.id}`)).status).toBe(204);
    expectErrorBody(await t.client.delete(`${BASE}/${z.id}`), 404);
    expectErrorBody(await t.client.delete(`${BASE}/not-an-id`), 404);
    expect((await t.client.delete(`${BASE}/delete-list?ids=${x.id},${UNKNOWN_ID}`)).status).toBe(204);
    expect((await t.client.get(`${BASE}/find-all`)).body.map((m: any) => m.id)).toEqual([y.id]);
    expectErrorBody(await t.client.delete(`${BASE}/delete-list`), 400);
  });

  it('permissions: READ_INBOX for reads and the count, DELETE_INBOX for deletes, UPDATE_INBOX for updates', async () => {
    const mail = await ingest(a.client, { fromEmail: 'perm@example.test' });
    const reader = await a.userWith(['READ_INBOX']);
    const other = await a.userWith(['READ_SENT_MAILS']);
    expect((await reader.client.get(`${BASE}/unread-count`)).status).toBe(200);
    expect((await reader.client.get(`${BASE}/find/${mail.id}`)).status).toBe(200);
    expectErrorBody(await reader.client.delete(`${BASE}/${mail.id}`), 403);
    expectErrorBody(await reader.client.delete(`${BASE}/delete-list?ids=${mail.id}`), 403);
    expect(await gqlErrorStatus(reader.client, UPDATE, { id: mail.id, input: { status: 'READ' } })).toBe(403);
    for (const path of [
      '/unread-count',
      '/find',
      '/find-all',
      `/find/${mail.id}`,
      '/find-list',
      '/page',
      '/dynamic-search',
      '/csv-export',
    ])
      expectErrorBody(await other.client.get(`${BASE}${path}`), 403);
  });

  it('tenant isolation: another tenant can neither read, count, list, search, export nor delete', async () => {
    const mail = await ingest(a.client, { fromEmail: 'secret@example.test', subject: 'Secret' });
    const countBefore = (await b.client.get(`${BASE}/unread-count`)).body;
    expect(countBefore).toEqual({ unread: 0, total: 0, NEW: 0, READ: 0, ARCHIVED: 0, REPLIED: 0 });
    expectErrorBody(await b.client.get(`${BASE}/find/${mail.id}`), 404);
    expect((await b.client.get(`${BASE}/find?ids=${mail.id}`)).body).toEqual([]);
    expect((await b.client.get(`${BASE}/find-all`)).body).toEqual([]);
    expect((await b.client.get(`${BASE}/dynamic-search?search=Secret`)).body.totalElements).toBe(0);
    expect((await b.client.get(`${BASE}/csv-export`)).body).not.toContain(mail.id);
    expectErrorBody(await b.client.delete(`${BASE}/${mail.id}`), 404);
    expect((await b.client.delete(`${BASE}/delete-list?ids=${mail.id}`)).status).toBe(204);
    expect((await a.client.get(`${BASE}/find/${mail.id}`)).status).toBe(200);
    // The same Message-ID in another tenant is another tenant's e-mail.
    const theirs = await ingest(b.client, { fromEmail: 'dup@example.test', internetMessageId: '<dup@x>' });
    expect(theirs.status).toBe('NEW');
    expect((await b.client.get(`${BASE}/unread-count`)).body).toMatchObject({ unread: 1, total: 1 });
  });
});
