import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody } from '../support/http';
import { addStock, createProduct, createSite } from '../inventory/helpers';

/**
 * A tenant's module switches (Tenant.scopes): a module switched off refuses its operations over
 * REST (403 naming the module) and GraphQL (FORBIDDEN), and hides its groups from my-access;
 * switched on again, everything is as it was.
 */
describe('module switches', () => {
  let server: TestServer;
  let a: TestTenant;
  let site: string;

  const scopes = async (change: Record<string, boolean>) => {
    const res = await a.client.patch('/tenant', { scopes: change });
    expect(res.status).toBe(200);
    return res.body.scopes;
  };

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Switches');
    site = await createSite(a.client, 'Depot');
    const product = await createProduct(a.client, { name: 'Crate' });
    await addStock(a.client, site, [{ productId: product, quantity: 3, price: 1 }]);
    const project = await a.client.graphql(`mutation { createHrProject(input: {name: "Roadmap"}) { id } }`);
    expect(project.body.errors).toBeUndefined();
  });
  afterAll(() => server.close());

  it('inventory off: its REST operations are 403 naming the module, GraphQL FORBIDDEN; other modules work; on again restores', async () => {
    expect((await scopes({ inventory: false })).inventory).toBe(false);
    for (const res of [
      await a.client.get('/inventory/dynamic-search'),
      await a.client.post('/stock-transfers/empty'),
      await a.client.post('/inventory', { stockSiteId: site, products: [] }),
    ]) {
      expectErrorBody(res, 403);
      expect(res.body.detail).toContain('inventory module');
    }
    const refused = await a.client.graphql(`{ searchStockInventories(input: {}) { totalElements } }`);
    expect(refused.body.errors![0].extensions).toMatchObject({ code: 'FORBIDDEN', status: 403 });
    expect(refused.body.errors![0].message).toContain('inventory module');
    // Other modules, and the tenant's administration, are untouched.
    expect((await a.client.get('/crm/activities/dynamic-search')).status).toBe(200);
    expect((await a.client.get('/access-control/my-access')).status).toBe(200);

    await scopes({ inventory: true });
    const back = await a.client.get('/inventory/dynamic-search');
    expect(back.status).toBe(200);
    expect(back.body.content[0]).toMatchObject({ totalQuantity: 3 });
  });

  it('projects off: my-access hides the projects; on again shows them', async () => {
    const before = (await a.client.get('/access-control/my-access')).body;
    expect(before.accessibleProjectIds).toHaveLength(1);
    await scopes({ projects: false });
    const hidden = (await a.client.get('/access-control/my-access')).body;
    expect(hidden).toMatchObject({
      accessibleProjectIds: [],
      accessibleSubsidiaryIds: before.accessibleSubsidiaryIds,
    });
    const graph = await a.client.graphql(`{ allHrProjects { id } }`);
    expect(graph.body.errors![0].extensions!.code).toBe('FORBIDDEN');
    await scopes({ projects: true });
    expect((await a.client.get('/access-control/my-access')).body).toEqual(before);
  });
});
