import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { Client, expectErrorBody } from '../support/http';
import { purgeExpiredHistory } from '../../src/history/retention';

process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/**
 * History with values (docs/history.md), over HTTP, with data made through the API: every change
 * keeps its fields' values before and after, the actor and the request; `events` come from the
 * history table; the audit log reads it tenant-wide; deleted records come back; old entries go.
 */
describe('history, audit log and restore', () => {
  let server: TestServer;
  let a: TestTenant;
  let b: TestTenant;

  beforeAll(async () => {
    server = await startServer();
    [a, b] = await Promise.all([server.tenant('History A'), server.tenant('History B')]);
  }, 60_000);
  afterAll(() => server.close());

  async function gql(client: Client, query: string, variables?: Record<string, unknown>) {
    const res = await client.graphql(query, variables);
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    return res.body.data;
  }

  async function newFeature(client: Client, input: Record<string, unknown>) {
    const res = await client.post('/hr/features', input);
    expect(res.status).toBe(201);
    return res.body as { id: string; events: { id: string; type: string; description: string }[] };
  }

  const UPDATE_FEATURE = `mutation($id: ID!, $input: UpdateFeatureInput!) {
    updateFeature(id: $id, input: $input) { id version events { id type description authorId date } } }`;

  it('keeps old and new values, the actor and the request of every change; events are its latest entries', async () => {
    const created = await a.client.post(
      '/hr/features',
      { name: 'Ledger', estimatedPoints: 3 },
      { 'x-request-id': 'trace-create-1' },
    );
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(created.body.events).toEqual([
      expect.objectContaining({ type: 'CREATE', authorId: a.adminId, description: 'Created Feature' }),
    ]);
    const updated = await gql(a.client, UPDATE_FEATURE, {
      id,
      input: { name: 'Ledger v2', estimatedPoints: 5, status: 'READY' },
    });
    expect(updated.updateFeature.events.map((e: any) => [e.type, e.description])).toEqual([
      ['CREATE', 'Created Feature'],
      ['STATUS_CHANGE', 'BACKLOG -> READY'],
      ['UPDATE', expect.stringMatching(/^Updated (name, estimatedPoints|estimatedPoints, name)$/)],
    ]);

    const data = await gql(
      a.client,
      `query($id: ID!) { feature(id: $id) { events { id type } history(pageSize: 10) {
        totalElements content { id type recordType recordId actor userId apiKeyId requestId description
          changes { field old new } } } } }`,
      { id },
    );
    const history = data.feature.history;
    expect(history.totalElements).toBe(3);
    const [update, status, create] = history.content;
    expect(update).toMatchObject({
      type: 'UPDATE',
      recordType: 'Feature',
      recordId: id,
      actor: a.adminEmail,
    });
    expect(update.userId).toBe(a.adminId);
    expect(update.apiKeyId).toBeNull();
    expect(update.changes).toEqual(
      expect.arrayContaining([
        { field: 'name', old: 'Ledger', new: 'Ledger v2' },
        { field: 'estimatedPoints', old: 3, new: 5 },
      ]),
    );
    expect(update.changes).toHaveLength(2);
    expect(status.changes).toEqual([{ field: 'status', old: 'BACKLOG', new: 'READY' }]);
    expect(create.requestId).toBe('trace-create-1');
    expect(create.changes).toEqual(
      expect.arrayContaining([
        { field: 'name', old: null, new: 'Ledger' },
        { field: 'estimatedPoints', old: null, new: 3 },
      ]),
    );
    // `events` and the history are the same entries, oldest first and newest first.
    expect(data.feature.events.map((e: any) => e.id)).toEqual(
      [...history.content].reverse().map((e: any) => e.id),
    );

    // REST: the same page, and the record's answer keeps the shape it always had.
    const rest = await a.client.get(`/hr/features/find/${id}/history?pageSize=2`);
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ totalElements: 3, totalPages: 2, size: 2 });
    expect(rest.body.content.map((e: any) => e.type)).toEqual(['UPDATE', 'STATUS_CHANGE']);
    const found = await a.client.get(`/hr/features/find/${id}`);
    expect(found.body).not.toHaveProperty('history');
    expect(found.body.events).toHaveLength(3);
  });

  it('a change rolled back leaves no history; a committed one always has it', async () => {
    const { id } = await newFeature(a.client, { name: 'Atomic' });
    // One GraphQL document: the first mutation is flushed (its entry with it), the second fails,
    // and the request's transaction is rolled back whole.
    const res = await a.client.graphql(
      `mutation($id: ID!, $gone: ID!) {
        first: updateFeature(id: $id, input: { name: "Atomic v2" }) { id }
        second: restoreFeature(id: $gone) { id } }`,
      { id, gone: UNKNOWN },
    );
    expect(res.body.errors?.[0].extensions?.status).toBe(404);
    const after = await a.client.get(`/hr/features/find/${id}/history`);
    expect(after.body.content.map((e: any) => e.type)).toEqual(['CREATE']);
    expect((await a.client.get(`/hr/features/find/${id}`)).body.name).toBe('Atomic');
    await gql(a.client, UPDATE_FEATURE, { id, input: { name: 'Atomic v2' } });
    const kept = await a.client.get(`/hr/features/find/${id}/history`);
    expect(kept.body.content[0].changes).toEqual([{ field: 'name', old: 'Atomic', new: 'Atomic v2' }]);
  });

  it('serves `events` capped at the latest 100; `history` pages the rest', async () => {
    const { id } = await newFeature(a.client, { name: 'Busy', estimatedPoints: 0 });
    for (let i = 1; i <= 104; i++) await gql(a.client, UPDATE_FEATURE, { id, input: { estimatedPoints: i } });
    const found = await a.client.get(`/hr/features/find/${id}`);
    expect(found.body.events).toHaveLength(100);
    expect(found.body.events.every((e: any) => e.type === 'UPDATE')).toBe(true);
    const page = await a.client.get(`/hr/features/find/${id}/history?pageNumber=1&pageSize=100`);
    expect(page.body.totalElements).toBe(105);
    expect(page.body.content.map((e: any) => e.type)).toEqual([
      'UPDATE',
      'UPDATE',
      'UPDATE',
      'UPDATE',
      'CREATE',
    ]);
    const last = page.body.content[3];
    expect(last.changes).toEqual([{ field: 'estimatedPoints', old: 0, new: 1 }]);
  }, 120_000);

  it('names the API key that made a change, and never shows a secret', async () => {
    const keyed = await a.client.post('/api-keys', {
      name: 'history key',
      permissions: ['CREATE_FEATURES', 'READ_FEATURES'],
    });
    expect(keyed.status).toBe(201);
    const key = keyed.body.key as string;
    const byKey = await new Client(server.baseUrl, key).post('/hr/features', { name: 'By key' });
    expect(byKey.status).toBe(201);
    const [entry] = (await a.client.get(`/hr/features/find/${byKey.body.id}/history`)).body.content;
    expect(entry).toMatchObject({
      type: 'CREATE',
      apiKeyId: keyed.body.id,
      userId: a.adminId,
      actor: `api-key:${keyed.body.id}`,
    });

    const rotated = await a.client.post(`/api-keys/${keyed.body.id}/rotate`);
    expect(rotated.status).toBe(200);
    const hook = await a.client.post('/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      events: ['feature.created'],
    });
    expect(hook.status).toBe(201);
    await a.client.post(`/webhooks/${hook.body.id}/rotate-secret`);
    expect((await a.client.delete(`/webhooks/${hook.body.id}`)).status).toBeLessThan(300);

    const keys = await a.client.get(`/audit-log?recordType=ApiKey&recordId=${keyed.body.id}`);
    expect(keys.body.content.map((e: any) => e.type)).toEqual(['UPDATE', 'CREATE']);
    const hooks = await a.client.get(`/audit-log?recordType=WebhookEndpoint&recordId=${hook.body.id}`);
    expect(hooks.body.content.map((e: any) => e.type)).toContain('DELETE');
    expect(hooks.body.content.map((e: any) => e.type)).toContain('CREATE');
    // The secret is all after the key's second underscore (base64url, so it may hold more).
    const secretOf = (k: string) => k.split('_').slice(2).join('_');
    const secrets = [secretOf(key), secretOf(rotated.body.key), hook.body.secret as string];
    for (const text of [
      keys.text,
      hooks.text,
      (await a.client.get('/audit-log/csv-export', { accept: 'text/csv' })).text,
    ]) {
      for (const secret of secrets) expect(text).not.toContain(secret);
      expect(text).not.toMatch(/secretHash|previousSecret|"secret"/);
    }
  });

  it('the audit log filters by record type, record, actor and time, pages, and exports CSV', async () => {
    const clerk = await a.userWith(['CREATE_FEATURES', 'READ_FEATURES']);
    const start = new Date().toISOString();
    const mine = await newFeature(clerk.client, { name: 'Clerk work' });
    const end = new Date(Date.now() + 1000).toISOString();

    const byActor = await a.client.get(`/audit-log?actorId=${clerk.userId}`);
    expect(byActor.status).toBe(200);
    expect(byActor.body.content).toEqual([
      expect.objectContaining({
        recordType: 'Feature',
        recordId: mine.id,
        type: 'CREATE',
        actor: clerk.email,
      }),
    ]);
    const inRange = await a.client.get(`/audit-log?recordType=Feature&from=${start}&to=${end}`);
    expect(inRange.body.content.map((e: any) => e.recordId)).toContain(mine.id);
    const before = await a.client.get(`/audit-log?recordType=Feature&to=${start}`);
    expect(before.body.content.map((e: any) => e.recordId)).not.toContain(mine.id);
    const paged = await a.client.get('/audit-log?pageSize=2&pageNumber=0');
    expect(paged.body).toMatchObject({ size: 2, number: 0, numberOfElements: 2 });
    expect(paged.body.totalElements).toBeGreaterThan(2);

    const csv = await a.client.get(`/audit-log/csv-export?actorId=${clerk.userId}`, { accept: 'text/csv' });
    expect(csv.status).toBe(200);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'occurredAt,type,recordType,recordId,actor,userId,apiKeyId,requestId,description,changes',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(mine.id);
    // `changes` has the REST answer's shape, [{field, old, new}], as JSON in one cell.
    const [entry] = byActor.body.content;
    expect(entry.changes).toEqual(expect.arrayContaining([{ field: 'name', old: null, new: 'Clerk work' }]));
    expect(lines[1].endsWith(`,"${JSON.stringify(entry.changes).replace(/"/g, '""')}"`)).toBe(true);
    // ...which is the shape docs/history.md shows.
    const doc = readFileSync(path.join(__dirname, '../../docs/history.md'), 'utf8');
    const example = JSON.parse(
      /`changes` has one shape[\s\S]*?```json\n([\s\S]*?)```/.exec(doc)![1],
    ) as object[];
    for (const change of [...example, ...entry.changes])
      expect(Object.keys(change)).toEqual(['field', 'old', 'new']);

    const gqlLog = await gql(
      a.client,
      `query($f: AuditLogFilter) { auditLog(filter: $f) { totalElements content { recordId } } }`,
      { f: { recordId: mine.id } },
    );
    expect(gqlLog.auditLog).toEqual({ totalElements: 1, content: [{ recordId: mine.id }] });

    // Bad input names what is wrong.
    const unknownType = await a.client.get('/audit-log?recordType=Nonsense');
    expectErrorBody(unknownType, 400);
    expect(unknownType.body.detail).toMatch(/recordType Nonsense/);
    const badId = await a.client.get('/audit-log?recordId=not-a-uuid');
    expectErrorBody(badId, 400);
    expect(badId.body.detail).toMatch(/recordId not-a-uuid/);
    const backwards = await a.client.get(`/audit-log?from=${end}&to=${start}`);
    expectErrorBody(backwards, 400);
    expect(backwards.body.detail).toMatch(/before/);
    const badRecord = await a.client.get('/hr/features/find/not-a-uuid/history');
    expectErrorBody(badRecord, 400);
    expect(badRecord.body.detail).toMatch(/not-a-uuid/);
    expectErrorBody(await a.client.get(`/hr/features/find/${UNKNOWN}/history`), 404);

    // The audit log needs READ_AUDIT_LOG; a record's history needs the record's READ permission.
    expectErrorBody(await clerk.client.get('/audit-log'), 403);
    expect((await clerk.client.get(`/hr/features/find/${mine.id}/history`)).status).toBe(200);
    const auditor = await a.userWith(['READ_AUDIT_LOG']);
    expect((await auditor.client.get('/audit-log')).status).toBe(200);
    expectErrorBody(await auditor.client.get(`/hr/features/find/${mine.id}/history`), 403);
  });

  it('restores a deleted record through the same checks as a write, with a RESTORE entry', async () => {
    const project = await a.client.post('/hr/projects', { name: 'Restore project' });
    const epic = await a.client.post('/hr/epics', { name: 'Restore epic', projectId: project.body.id });
    expect(epic.status).toBe(201);
    const feature = await newFeature(a.client, {
      name: 'Doomed',
      epicId: epic.body.id,
      estimatedPoints: 8,
      tags: ['x'],
    });
    expect((await a.client.delete(`/hr/features/delete-list?ids=${feature.id}`)).status).toBe(204);
    expectErrorBody(await a.client.get(`/hr/features/find/${feature.id}`), 404);
    // The history of a deleted record stays readable.
    const afterDelete = await a.client.get(`/hr/features/find/${feature.id}/history`);
    expect(afterDelete.body.content[0]).toMatchObject({ type: 'DELETE' });
    expect(afterDelete.body.content[0].changes).toEqual(
      expect.arrayContaining([{ field: 'name', old: 'Doomed', new: null }]),
    );

    // Its epic goes too: restoring the feature would break its reference.
    expect((await a.client.delete(`/hr/epics/delete-list?ids=${epic.body.id}`)).status).toBe(204);
    const broken = await a.client.post(`/hr/features/deleted/${feature.id}/restore`);
    expectErrorBody(broken, 409);
    expect(broken.body.detail).toMatch(/epicId/);
    // The failed restore was rolled back with its history entry.
    const untouched = await a.client.get(`/audit-log?recordId=${feature.id}`);
    expect(untouched.body.content.map((e: any) => e.type)).toEqual(['DELETE', 'CREATE']);

    // Parent first, then the child.
    const epicBack = await gql(a.client, `mutation($id: ID!) { restoreEpic(id: $id) { id name } }`, {
      id: epic.body.id,
    });
    expect(epicBack.restoreEpic).toEqual({ id: epic.body.id, name: 'Restore epic' });
    const back = await a.client.post(`/hr/features/deleted/${feature.id}/restore`);
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({
      id: feature.id,
      name: 'Doomed',
      epicId: epic.body.id,
      estimatedPoints: 8,
      tags: ['x'],
    });
    expect(back.body.created).toBe(
      (await a.client.get(`/audit-log?recordId=${feature.id}&pageSize=1&pageNumber=2`)).body.content[0]
        .occurredAt,
    );
    expect(back.body.events.map((e: any) => e.type)).toEqual(['CREATE', 'DELETE', 'RESTORE']);
    expect((await a.client.get(`/hr/features/find/${feature.id}`)).status).toBe(200);

    // A record that exists cannot be restored; one never deleted is a 404; a malformed id a 400.
    expectErrorBody(await a.client.post(`/hr/features/deleted/${feature.id}/restore`), 409);
    expectErrorBody(await a.client.post(`/hr/features/deleted/${UNKNOWN}/restore`), 404);
    expectErrorBody(await a.client.post('/hr/features/deleted/nope/restore'), 400);
    // Restoring needs the group's CREATE permission.
    const reader = await a.userWith(['READ_FEATURES']);
    expectErrorBody(await reader.client.post(`/hr/features/deleted/${UNKNOWN}/restore`), 403);
  });

  it('a delete that clears a link records the change on the linking record, with its event', async () => {
    const project = await a.client.post('/hr/projects', { name: 'Cleared project' });
    const epic = await a.client.post('/hr/epics', { name: 'Cleared epic', projectId: project.body.id });
    const feature = await newFeature(a.client, { name: 'Orphan', epicId: epic.body.id });
    expect((await a.client.delete(`/hr/epics/delete-list?ids=${epic.body.id}`)).status).toBe(204);
    const found = await a.client.get(`/hr/features/find/${feature.id}`);
    expect(found.body.epicId).toBeNull();
    expect(found.body.events.map((e: any) => e.type)).toEqual(['CREATE', 'UPDATE']);
    const [cleared] = (await a.client.get(`/hr/features/find/${feature.id}/history`)).body.content;
    expect(cleared).toMatchObject({ type: 'UPDATE', userId: a.adminId });
    expect(cleared.changes).toEqual([{ field: 'epicId', old: epic.body.id, new: null }]);
  });

  it('a record deleted before the retention period is gone for good (404); the job deletes old entries', async () => {
    expectErrorBody(await a.client.put('/audit-log/settings', { retentionDays: 0 }), 400);
    const set = await a.client.put('/audit-log/settings', { retentionDays: 30 });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ retentionDays: 30 });
    expect((await a.client.get('/audit-log/settings')).body).toEqual({ retentionDays: 30 });

    const old = await newFeature(a.client, { name: 'Long gone' });
    const recent = await newFeature(a.client, { name: 'Just gone' });
    await a.client.delete(`/hr/features/delete-list?ids=${old.id},${recent.id}`);
    // As if `old` had been made and deleted 40 days ago.
    const conn = server.orm.em.getConnection();
    await conn.execute(
      `update record_history set occurred_at = now() - interval '40 days' where record_id = ?`,
      [old.id],
    );
    await conn.execute(`update audit_log set created = now() - interval '40 days' where entity_id = ?`, [
      old.id,
    ]);

    // Before the job runs, the deletion is already outside the period: not restorable.
    expectErrorBody(await a.client.post(`/hr/features/deleted/${old.id}/restore`), 404);
    // Tenant B keeps the default period: its entries of the same age stay.
    const bOld = await newFeature(b.client, { name: 'B old' });
    await conn.execute(
      `update record_history set occurred_at = now() - interval '40 days' where record_id = ?`,
      [bOld.id],
    );

    const purged = await purgeExpiredHistory(server.orm);
    expect(purged.entries).toBeGreaterThanOrEqual(2);
    expect(purged.deletions).toBeGreaterThanOrEqual(1);
    expect((await a.client.get(`/audit-log?recordId=${old.id}`)).body.totalElements).toBe(0);
    expect((await a.client.get(`/audit-log?recordId=${recent.id}`)).body.totalElements).toBe(2);
    expect((await b.client.get(`/hr/features/find/${bOld.id}/history`)).body.totalElements).toBe(1);
    expectErrorBody(await a.client.post(`/hr/features/deleted/${old.id}/restore`), 404);
    expect((await a.client.post(`/hr/features/deleted/${recent.id}/restore`)).status).toBe(200);
  });

  it("another tenant can neither read A's history or audit log nor restore A's records", async () => {
    const f = await newFeature(a.client, { name: 'A secret plan' });
    await gql(a.client, UPDATE_FEATURE, { id: f.id, input: { name: 'A secret plan v2' } });
    expectErrorBody(await b.client.get(`/hr/features/find/${f.id}/history`), 404);
    const viaGraphql = await b.client.graphql(
      `query($id: ID!) { featureHistory(id: $id) { totalElements } }`,
      { id: f.id },
    );
    expect(viaGraphql.body.errors?.[0].extensions?.status).toBe(404);
    const log = await b.client.get(`/audit-log?recordId=${f.id}`);
    expect(log.body.totalElements).toBe(0);
    const all = await b.client.get('/audit-log?pageSize=1000');
    expect(all.text).not.toContain(f.id);
    expect(all.text).not.toContain('A secret plan');
    const csv = await b.client.get('/audit-log/csv-export', { accept: 'text/csv' });
    expect(csv.text).not.toContain(f.id);

    await a.client.delete(`/hr/features/delete-list?ids=${f.id}`);
    expectErrorBody(await b.client.post(`/hr/features/deleted/${f.id}/restore`), 404);
    expectErrorBody(await b.client.get(`/hr/features/find/${f.id}/history`), 404);
    // A's record is still deleted, and A can still restore it.
    expect((await a.client.post(`/hr/features/deleted/${f.id}/restore`)).status).toBe(200);
  });
});
