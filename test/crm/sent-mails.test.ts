import { startServer, type TestServer, type TestTenant } from '../support/server';
import type { Client } from '../support/http';
import { expectErrorBody } from '../support/http';
import { audited, gql, gqlErrorStatus, ISO, UNKNOWN_ID } from './support';

const BASE = '/sent-mails';
const CREATE = `mutation($input: CreateSentMailInput!) { createSentMail(input: $input) { id } }`;
const UPDATE = `mutation($id: ID!, $input: UpdateSentMailInput!) { updateSentMail(id: $id, input: $input) { opened openedAt } }`;

describe('Sent mails', () => {
  let server: TestServer;
  let a: TestTenant;
  let b: TestTenant;

  const record = async (client: Client, input: object): Promise<string> =>
    (await gql(client, CREATE, { input })).createSentMail.id;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Sent A');
    b = await server.tenant('Sent B');
  });
  afterAll(() => server.close());

  it('a recorded mail shows every documented field; unopened by default', async () => {
    const id = await record(a.client, { recipient: 'client@example.test', subject: 'Your quote' });
    const res = await a.client.get(`${BASE}/find/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...audited(a),
      id,
      recipient: 'client@example.test',
      subject: 'Your quote',
      opened: false,
      openedAt: null,
      messageId: null,
    });
    expect(await gqlErrorStatus(a.client, CREATE, { input: { subject: 'nobody' } })).toBe(400);
    expect(await gqlErrorStatus(a.client, CREATE, { input: { recipient: 'not-mail' } })).toBe(400);
  });

  it('marking a mail opened stamps openedAt unless given; unmarking clears it', async () => {
    const id = await record(a.client, { recipient: 'open@example.test' });
    const opened = await gql(a.client, UPDATE, { id, input: { opened: true } });
    expect(opened.updateSentMail).toEqual({ opened: true, openedAt: expect.stringMatching(ISO) });
    const closed = await gql(a.client, UPDATE, { id, input: { opened: false } });
    expect(closed.updateSentMail).toEqual({ opened: false, openedAt: null });
    const given = await gql(a.client, UPDATE, {
      id,
      input: { opened: true, openedAt: '2026-02-03T04:05:06Z' },
    });
    expect(given.updateSentMail.openedAt).toBe('2026-02-03T04:05:06.000Z');
    const shown = (await a.client.get(`${BASE}/find/${id}`)).body;
    expect(shown.events.map((e: any) => e.type)).toEqual(['CREATE', 'UPDATE', 'UPDATE', 'UPDATE']);
  });

  it('find, find-all, find/{id}, page, delete one and bulk delete', async () => {
    const t = await server.tenant('Sent family');
    const x = await record(t.client, { recipient: 'xavier@example.test', subject: 'B' });
    const y = await record(t.client, { recipient: 'yara@example.test', subject: 'A' });
    const z = await record(t.client, { recipient: 'zed@example.test', subject: 'C' });

    expect(
      (await t.client.get(`${BASE}/find?ids=${z},${UNKNOWN_ID}&ids=${x}`)).body.map((m: any) => m.id),
    ).toEqual([z, x]);
    expectErrorBody(await t.client.get(`${BASE}/find`), 400);
    expect((await t.client.get(`${BASE}/find-all`)).body.map((m: any) => m.id)).toEqual([x, y, z]);
    expectErrorBody(await t.client.get(`${BASE}/find/${UNKNOWN_ID}`), 404);
    const page = await t.client.get(`${BASE}/page?sortBy=subject&pageSize=2&search=example`);
    expect(page.body).toMatchObject({ totalElements: 3, totalPages: 2 });
    expect(page.body.content.map((m: any) => m.id)).toEqual([y, x]);
    expectErrorBody(await t.client.get(`${BASE}/page?sortBy=body`), 400);

    expect((await t.client.delete(`${BASE}/${x}`)).status).toBe(204);
    expectErrorBody(await t.client.delete(`${BASE}/${x}`), 404);
    const bulk = await t.client.delete(BASE, [y, z, UNKNOWN_ID, 'garbage']);
    expect(bulk.status).toBe(204);
    expect((await t.client.get(`${BASE}/find-all`)).body).toEqual([]);
    expectErrorBody(await t.client.delete(BASE, { ids: [y] }), 400);
    expectErrorBody(await t.client.delete(BASE), 400);
  });

  it('permissions: READ_SENT_MAILS for reads, DELETE_SENT_MAILS for deletes', async () => {
    const id = await record(a.client, { recipient: 'perm@example.test' });
    const reader = await a.userWith(['READ_SENT_MAILS']);
    const other = await a.userWith(['READ_INBOX']);
    expect((await reader.client.get(`${BASE}/find/${id}`)).status).toBe(200);
    expectErrorBody(await reader.client.delete(`${BASE}/${id}`), 403);
    expectErrorBody(await reader.client.delete(BASE, [id]), 403);
    expect(await gqlErrorStatus(reader.client, CREATE, { input: { recipient: 'a@b.test' } })).toBe(403);
    for (const path of [`/find?ids=${id}`, '/find-all', `/find/${id}`, '/page'])
      expectErrorBody(await other.client.get(`${BASE}${path}`), 403);
  });

  it('tenant isolation: another tenant can neither read, list nor delete', async () => {
    const id = await record(a.client, { recipient: 'secret@example.test' });
    expectErrorBody(await b.client.get(`${BASE}/find/${id}`), 404);
    expect((await b.client.get(`${BASE}/find?ids=${id}`)).body).toEqual([]);
    expect((await b.client.get(`${BASE}/find-all`)).body).toEqual([]);
    expect((await b.client.get(`${BASE}/page?search=secret`)).body.totalElements).toBe(0);
    expectErrorBody(await b.client.delete(`${BASE}/${id}`), 404);
    expect((await b.client.delete(BASE, [id])).status).toBe(204);
    expect((await a.client.get(`${BASE}/find/${id}`)).status).toBe(200);
  });
});
