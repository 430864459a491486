import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody } from '../support/http';

/** Tenant B can neither see, change nor delete tenant A's concepts or tax percentages, by any path. */
describe('tenant isolation (concepts, tax percentages)', () => {
  let server: TestServer;
  let a: TestTenant;
  let b: TestTenant;
  let concept: any;
  let tax: any;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('A');
    b = await server.tenant('B');
    concept = (await a.client.post('/concepts', { name: 'Secret concept', buildingType: 'ROW' })).body;
    tax = (await a.client.post('/tax-percentages', { percentage: 9 })).body;
  });
  afterAll(() => server.close());

  it('reads: single ids are 404, lists and pages leave the records out', async () => {
    expectErrorBody(await b.client.get(`/concepts/find/${concept.id}`), 404);
    expectErrorBody(await b.client.get(`/tax-percentages/find/${tax.id}`), 404);
    expect((await b.client.get(`/concepts/find?ids=${concept.id}`)).body).toEqual([]);
    expect((await b.client.get(`/tax-percentages/find?ids=${tax.id}`)).body).toEqual([]);
    expect((await b.client.get('/concepts/find-all')).body).toEqual([]);
    expect((await b.client.get('/concepts/tenant/list')).body).toEqual([]);
    expect((await b.client.get('/tax-percentages/find-all')).body).toEqual([]);
    expect((await b.client.get('/concepts/page?search=Secret')).body.totalElements).toBe(0);
    expect((await b.client.get('/tax-percentages/page')).body.totalElements).toBe(0);
    const gql = await b.client.graphql(
      `query($id: ID!) { concept(id: $id) { id } searchConcepts { totalElements } exportConceptsCsv }`,
      { id: concept.id },
    );
    expect(gql.body.data.concept).toBeNull();
    expect(gql.body.data.searchConcepts.totalElements).toBe(0);
    expect(gql.body.data.exportConceptsCsv.split('\r\n').filter(Boolean)).toHaveLength(1);
  });

  it('writes: updates and deletes are 404 or skipped, and A still has its records unchanged', async () => {
    expectErrorBody(await b.client.patch(`/concepts/${concept.id}`, { name: 'Hijacked' }), 404);
    expectErrorBody(await b.client.patch(`/tax-percentages/${tax.id}`, { percentage: 99 }), 404);
    expectErrorBody(await b.client.delete(`/concepts/${concept.id}`), 404);
    expectErrorBody(await b.client.delete(`/tax-percentages/${tax.id}`), 404);
    expect((await b.client.delete('/concepts', [concept.id])).status).toBe(204);
    expect((await b.client.delete('/tax-percentages', [tax.id])).status).toBe(204);
    const gql = await b.client.graphql(
      `mutation($id: ID!) { deleteConcept(id: $id) deleteConcepts(ids: [$id]) }`,
      { id: concept.id },
    );
    expect(gql.body.data).toEqual({ deleteConcept: false, deleteConcepts: 0 });
    expect((await a.client.get(`/concepts/find/${concept.id}`)).body).toEqual(concept);
    expect((await a.client.get(`/tax-percentages/find/${tax.id}`)).body).toEqual(tax);
  });

  it('a tenantId in a body is ignored: records land in the caller tenant', async () => {
    const res = await b.client.post('/concepts', { name: 'Planted', tenantId: a.tenantId });
    expect(res.body.tenantId).toBe(b.tenantId);
    expect((await a.client.get('/concepts/page?search=Planted')).body.totalElements).toBe(0);
  });
});
