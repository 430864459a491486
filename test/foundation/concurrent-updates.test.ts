import { startServer, type TestServer, type TestTenant } from '../support/server';

/** Concurrent updates of one record never lose one silently (docs/conventions.md: 409 on a conflict). */
describe('concurrent updates', () => {
  let server: TestServer;
  let a: TestTenant;
  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Concurrency');
  });
  afterAll(() => server.close());

  it('parallel PATCHes of one record each either land (200) or are refused (409); every landed one is in the history', async () => {
    const concept = (await a.client.post('/concepts', { name: 'Start' })).body;
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        a.client.patch(`/concepts/${concept.id}`, { name: `Writer ${i}` }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    const landed = results.filter((r) => r.status === 200);
    expect(landed.length).toBeGreaterThan(0);
    const after = await a.client.graphql(
      `query($id: ID!) { concept(id: $id) { name version events { type } } }`,
      { id: concept.id },
    );
    const stored = after.body.data.concept;
    expect(stored.version).toBe(1 + landed.length);
    expect(stored.events.filter((e: { type: string }) => e.type === 'UPDATE')).toHaveLength(landed.length);
    expect(landed.map((r) => r.body.name)).toContain(stored.name);
  });

  it('an update based on a stale version is a 409 and changes nothing', async () => {
    const created = await a.client.graphql(
      `mutation { createConcept(input: { name: "Versioned" }) { id version } }`,
    );
    const { id, version } = created.body.data.createConcept;
    const update = (name: string, expectedVersion: number) =>
      a.client.graphql(
        `mutation($id: ID!, $v: Int, $n: String) { updateConcept(id: $id, expectedVersion: $v, input: { name: $n }) { name version } }`,
        {
          id,
          v: expectedVersion,
          n: name,
        },
      );
    const first = await update('First', version);
    expect(first.body.data.updateConcept).toEqual({ name: 'First', version: version + 1 });
    const stale = await update('Stale', version);
    expect(stale.body.errors?.[0].extensions?.status).toBe(409);
    expect((await a.client.get(`/concepts/find/${id}`)).body.name).toBe('First');
  });
});
