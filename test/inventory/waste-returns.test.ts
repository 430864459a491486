import { startServer, type TestServer, type TestTenant } from '../support/server';
import { expectErrorBody } from '../support/http';
import { addStock, createProduct, createSite, gql } from './helpers';

/** Waste that deducted stock gives it back when deleted, and takes it again when restored. */
describe('waste returns stock', () => {
  let server: TestServer;
  let a: TestTenant;
  let site: string;
  let flour: string;

  const stockOf = async (productId = flour) =>
    (
      await a.client.get(
        `/inventory/dynamic-search?filters=siteId:eq:${site}&filters=productId:eq:${productId}`,
      )
    ).body.content[0];
  const register = (dto: Record<string, unknown>) => a.client.post('/waste-management', { dto });

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Waste returns');
    site = await createSite(a.client, 'Bakery');
    flour = await createProduct(a.client, { name: 'Flour' });
    await addStock(a.client, site, [{ productId: flour, quantity: 10, price: 2 }]);
  });
  afterAll(() => server.close());

  it('deleting (REST) gives the deducted quantity back; restoring takes it again', async () => {
    const w = await register({ productId: flour, quantity: 4, stockSiteId: site, deductRawMaterials: true });
    expect(w.status).toBe(201);
    expect(await stockOf()).toMatchObject({ totalQuantity: 6 });

    expect((await a.client.delete(`/waste-management/${w.body.id}`)).status).toBe(204);
    const back = await stockOf();
    expect(back).toMatchObject({ totalQuantity: 10, availableQuantity: 10, unitPrice: 2 });
    expect(back.events.map((e: any) => e.description)).toContain(
      `Gave back 4 deducted by deleted waste record ${w.body.id}`,
    );

    const restored = await a.client.post(`/waste-management/deleted/${w.body.id}/restore`);
    expect(restored.status).toBe(200);
    expect(await stockOf()).toMatchObject({ totalQuantity: 6 });
  });

  it('waste that deducted nothing changes no stock when deleted', async () => {
    const w = await register({ productId: flour, quantity: 1, stockSiteId: site });
    expect((await a.client.delete(`/waste-management/${w.body.id}`)).status).toBe(204);
    expect(await stockOf()).toMatchObject({ totalQuantity: 6 });
  });

  it('a restore whose stock is no longer there is a 409 (GraphQL too), and the record stays deleted', async () => {
    const w = await register({ productId: flour, quantity: 5, stockSiteId: site, deductRawMaterials: true });
    expect(w.status).toBe(201);
    expect(await stockOf()).toMatchObject({ totalQuantity: 1 });
    const deleted = await gql(a.client, `mutation($id: ID!) { deleteWasteRecord(id: $id) }`, {
      id: w.body.id,
    });
    expect(deleted).toBeTruthy();
    expect(await stockOf()).toMatchObject({ totalQuantity: 6 });
    // The stock is used up meanwhile.
    await a.client.post('/inventory/adjust', { productId: flour, stockSiteId: site, newQuantity: 2 });
    const refused = await a.client.graphql(`mutation($id: ID!) { restoreWasteRecord(id: $id) { id } }`, {
      id: w.body.id,
    });
    expect(refused.body.errors![0].extensions!.status).toBe(409);
    expectErrorBody(await a.client.post(`/waste-management/deleted/${w.body.id}/restore`), 409);
    expectErrorBody(await a.client.get(`/waste-management/find/${w.body.id}`), 404);
    expect(await stockOf()).toMatchObject({ totalQuantity: 2 });
  });
});
