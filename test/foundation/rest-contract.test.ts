import { randomUUID } from 'node:crypto';
import createClient from 'openapi-fetch';
import type { paths } from '../client/openapi';
import { queryNamesOf } from '../../src/rest/compile';
import { restTable } from '../../src/rest/table';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody, type Response } from '../support/http';
import { createCustomer, createOpportunity, createSubsidiary, gql } from '../crm/support';
import { addStock, createProduct, createSite } from '../inventory/helpers';

/**
 * The edges of the REST contract (docs/rest-contract.md): ids are checked, errors name every
 * culprit, bodies and query strings are read as documented and only as documented.
 */
const fields = (res: Response) => (res.body.errors ?? []).map((e: { field: string }) => e.field).sort();

describe('the REST contract', () => {
  let server: TestServer;
  let a: TestTenant;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Contract');
  });
  afterAll(() => server.close());

  const createProject = async (name: string) =>
    (await a.client.post('/hr/projects', { name })).body.id as string;

  describe('references are checked, not trusted', () => {
    it('PUT .../projects/{id}/users and .../subsidiaries/{id}/users: an unknown id is 404 naming it; nothing changes', async () => {
      const x = await a.userWith([]);
      const project = await createProject('Known');
      expect(
        (await a.client.put(`/access-control/projects/${project}/users`, { userEmails: [x.email] })).status,
      ).toBe(204);

      const unknown = randomUUID();
      const res = await a.client.put(`/access-control/projects/${unknown}/users`, { userEmails: [x.email] });
      expectErrorBody(res, 404);
      expect(res.body.detail).toContain(unknown);
      expect((await x.client.get('/access-control/my-access')).body.accessibleProjectIds).toEqual([project]);
      expectErrorBody(await a.client.get(`/access-control/projects/${unknown}/users`), 404);

      const sub = randomUUID();
      const subRes = await a.client.put(`/access-control/subsidiaries/${sub}/users`, {
        userEmails: [x.email],
      });
      expectErrorBody(subRes, 404);
      expect(subRes.body.detail).toContain(sub);
      expect((await x.client.get('/access-control/my-access')).body.accessibleSubsidiaryIds).toEqual([]);
    });

    it("a user's own lists take only projects and subsidiaries of the tenant; every unknown one is named", async () => {
      const other = await server.tenant('Contract other');
      const foreignSub = await createSubsidiary(other.client, { name: 'Foreign' });
      const north = await createSubsidiary(a.client, { name: 'North' });
      const p1 = await createProject('P1');
      const u = await a.userWith([]);
      expect(
        (await a.client.put(`/access-control/users/${u.email}/project-access`, { projectIds: [p1] })).status,
      ).toBe(200);

      const missing = randomUUID();
      const res = await a.client.put(`/access-control/users/${u.email}/project-access`, {
        projectIds: [p1, missing],
      });
      expectErrorBody(res, 404);
      expect(res.body.detail).toContain(missing);
      expect(res.body.errors).toEqual([{ field: 'projectIds[1]', reason: expect.stringContaining(missing) }]);

      const subs = await a.client.put(`/access-control/users/${u.email}/subsidiary-access`, {
        subsidiaryIds: [foreignSub, north, missing],
      });
      expectErrorBody(subs, 404);
      expect(fields(subs)).toEqual(['subsidiaryIds[0]', 'subsidiaryIds[2]']);
      expect((await u.client.get('/access-control/my-access')).body).toEqual({
        accessibleProjectIds: [p1],
        accessibleSubsidiaryIds: [],
        hasFullAccess: false,
      });
    });
  });

  describe('errors name every culprit', () => {
    it('a body with several type errors names each of them, before any reference is checked', async () => {
      const res = await a.client.post('/concepts', { name: 42, buildingType: 'CASTLE' });
      expectErrorBody(res, 400);
      expect(fields(res)).toEqual(['buildingType', 'name']);
      expect(res.body.detail).toContain('name');
      expect(res.body.detail).toContain('buildingType');

      const refs = await a.client.post('/crm/activities', {
        subject: 'Call',
        type: 'CALL',
        priority: 7,
        customerId: 12,
        ownerId: randomUUID(),
      });
      expectErrorBody(refs, 400);
      expect(fields(refs)).toEqual(['customerId', 'priority']);
    });

    it('failed validation names every field', async () => {
      const res = await a.client.post('/hr/epics', { name: '', ownerId: 'boss', priority: 1 });
      expectErrorBody(res, 400);
      expect(fields(res)).toEqual(expect.arrayContaining(['name', 'ownerId']));
    });

    it('several unknown references are named together', async () => {
      const customer = randomUUID();
      const opportunity = randomUUID();
      const res = await a.client.post('/crm/activities', {
        subject: 'Call',
        type: 'CALL',
        customerId: customer,
        opportunityId: opportunity,
      });
      expectErrorBody(res, 404);
      expect(fields(res)).toEqual(['customerId', 'opportunityId']);
      expect(res.body.detail).toContain(customer);
      expect(res.body.detail).toContain(opportunity);
      const known = await a.client.post('/crm/activities', {
        subject: 'Call',
        type: 'CALL',
        customerId: await createCustomer(a.client, { name: 'Acme' }),
        opportunityId: await createOpportunity(a.client, { name: 'Deal' }),
      });
      expect(known.status).toBe(201);
    });

    it('a request missing several required parameters names all of them', async () => {
      const widget = randomUUID();
      const res = await a.client.get(`/crm/bookings/by-widget/${widget}`);
      expectErrorBody(res, 400);
      expect(fields(res)).toEqual(['end', 'start']);

      const batch = await a.client.put('/inventory/batches?batchNumber=B1');
      expectErrorBody(batch, 400);
      expect(fields(batch)).toEqual(['productId', 'stockSiteId']);
    });
  });

  describe('inputs are read as documented, and only as documented', () => {
    it('bulk deletes answer 400 to a body that is not an array of ids, and delete nothing', async () => {
      const concept = (await a.client.post('/concepts', { name: 'Keep', buildingType: 'ROW' })).body;
      const tax = (await a.client.post('/tax-percentages', { percentage: 9 })).body;
      for (const base of ['/concepts', '/tax-percentages', '/sent-mails', '/notifications']) {
        for (const body of [42, 'text', { ids: [concept.id] }, [concept.id, 7]]) {
          const res = await a.client.delete(base, body);
          expectErrorBody(res, 400);
          expect(res.body.errors.length).toBeGreaterThan(0);
        }
      }
      expect((await a.client.get(`/concepts/find/${concept.id}`)).status).toBe(200);
      expect((await a.client.get(`/tax-percentages/find/${tax.id}`)).status).toBe(200);
      expect((await a.client.delete('/concepts', [concept.id])).status).toBe(204);
      expect((await a.client.get(`/concepts/find/${concept.id}`)).status).toBe(404);
    });

    it('PATCH /crm/leads/{id}/subsidiary: [] is 400 and keeps the subsidiary; {} clears it', async () => {
      const north = await createSubsidiary(a.client, { name: 'Lead north' });
      const lead = (
        await gql(a.client, 'mutation($i: LeadInput!) { createLead(input: $i) { id } }', {
          i: { subsidiaryId: north },
        })
      ).createLead;
      for (const body of [[], 'north', 3, { subsidiaryId: 5 }]) {
        const res = await a.client.patch(`/crm/leads/${lead.id}/subsidiary`, body);
        expectErrorBody(res, 400);
      }
      const kept = await gql(a.client, 'query($id: ID!) { lead(id: $id) { subsidiaryId } }', { id: lead.id });
      expect(kept.lead.subsidiaryId).toBe(north);
      const unknown = randomUUID();
      const missing = await a.client.patch(`/crm/leads/${lead.id}/subsidiary`, { subsidiaryId: unknown });
      expectErrorBody(missing, 404);
      expect(missing.body.detail).toContain(unknown);
      const cleared = await a.client.patch(`/crm/leads/${lead.id}/subsidiary`, {});
      expect(cleared.status).toBe(200);
      expect(cleared.body.subsidiaryId).toBeNull();
    });

    it('an unknown query parameter is 400 naming it, instead of answering the wrong page', async () => {
      for (let i = 0; i < 3; i++)
        await a.client.post('/concepts', { name: `Paged ${i}`, buildingType: 'ROW' });
      const res = await a.client.get('/concepts/page?page=50&pageSize=5');
      expectErrorBody(res, 400);
      expect(res.body.detail).toContain('page');
      expect(res.body.errors).toEqual([{ field: 'page', reason: expect.any(String) }]);
      const two = await a.client.get('/concepts/find-all?limit=1&offset=2');
      expectErrorBody(two, 400);
      expect(fields(two)).toEqual(['limit', 'offset']);
      expect((await a.client.get('/concepts/page?pageNumber=0&pageSize=5')).status).toBe(200);
      expect((await a.client.get('/hr/features/dynamic-search?search=x&page=0&size=5')).status).toBe(200);
    });

    it('every operation accepts exactly the query parameters its OpenAPI operation documents', async () => {
      const doc = (await a.client.get('/openapi.json')).body;
      const mismatches: string[] = [];
      for (const route of restTable) {
        const op = doc.paths[route.path][route.method.toLowerCase()];
        const documented = ((op.parameters ?? []) as { in: string; name: string }[])
          .filter((p) => p.in === 'query')
          .map((p) => p.name);
        const field =
          server.app.schema.getQueryType()?.getFields()[route.field] ??
          server.app.schema.getMutationType()!.getFields()[route.field];
        const accepted = [...queryNamesOf(route, field.args)];
        if (documented.sort().join() !== accepted.sort().join())
          mismatches.push(`${route.method} ${route.path}: documented ${documented}, accepted ${accepted}`);
      }
      expect(mismatches).toEqual([]);
    });

    it('PUT /inventory/batches takes the documented JSON body, or the same fields as query parameters', async () => {
      const oak = await createProduct(a.client, { name: 'Oak', unitPrice: 2 });
      const s = await createSite(a.client, 'Contract batches');
      await addStock(a.client, s, [
        { productId: oak, quantity: 10, price: 2, batchNumber: 'B1', locationId: 'L1' },
      ]);
      const res = await a.client.put('/inventory/batches', {
        stockSiteId: s,
        productId: oak,
        batchNumber: 'B1',
        locationId: 'L1',
        quantity: 25,
        expirationDate: '2027-03-01T00:00:00.000Z',
      });
      expect(res.status).toBe(200);
      expect(res.body.totalQuantity).toBe(25);
      expect(res.body.locations[0].batches[0]).toMatchObject({
        batchNumber: 'B1',
        quantity: 25,
        expirationDate: '2027-03-01T00:00:00.000Z',
      });
      // As a client generated from the OpenAPI document calls it.
      const api = createClient<paths>({
        baseUrl: `${server.baseUrl}/api/v1`,
        headers: { Authorization: `Bearer ${a.token}` },
      });
      const typed = await api.PUT('/inventory/batches', {
        body: { stockSiteId: s, productId: oak, batchNumber: 'B1', locationId: 'L1', quantity: 15 },
      });
      expect(typed.response.status).toBe(200);
      expect(typed.data?.totalQuantity).toBe(15);
      const query = await a.client.put(
        `/inventory/batches?stockSiteId=${s}&productId=${oak}&batchNumber=B1&locationId=L1&quantity=20`,
      );
      expect(query.status).toBe(200);
      expect(query.body.totalQuantity).toBe(20);

      const bad = await a.client.put('/inventory/batches', {
        stockSiteId: s,
        productId: oak,
        quantity: 'many',
      });
      expectErrorBody(bad, 400);
      expect(bad.body.detail).toContain('quantity');
      const both = await a.client.put(`/inventory/batches?quantity=3`, { stockSiteId: s, productId: oak });
      expectErrorBody(both, 400);
      expect(fields(both)).toEqual(['quantity']);
      expectErrorBody(await a.client.put('/inventory/batches', [s, oak]), 400);
      expect((await a.client.put('/inventory/batches?stockSiteId=' + s, undefined)).status).toBe(400);
    });
  });
});
