import { startServer, type TestServer, type TestTenant } from '../support/server';
import { tripsDuring } from '../support/statements';

/**
 * An invoice create's round trips, seen at the pg driver (a pipeline is one `query` call): the
 * begin with the first reference's and the tenant's reads; the PDF's queue row with the number's
 * statement, which takes the tenant's number lock; the writes with COMMIT. The fewer trips after
 * the number's, the shorter the tenant's other creates wait on its lock.
 */
const pipelined = Boolean(process.env.DATABASE_URL);

(pipelined ? describe : describe.skip)('an invoice create', () => {
  let server: TestServer;
  let a: TestTenant;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Invoice trips');
  }, 120_000);
  afterAll(() => server?.close());

  it('takes three round trips, the number last but one', async () => {
    const created = await a.client.graphql<{ createCustomer: { id: string } }>(
      'mutation { createCustomer(input: { name: "Customer", email: "c@example.test" }) { id } }',
    );
    const clientId = created.body.data!.createCustomer.id;
    const invoice = () =>
      a.client.post('/invoices', {
        clientId,
        rows: [
          { description: 'Consulting', quantity: 8, unitPrice: 95, taxRate: 21 },
          { description: 'Travel', quantity: 1, unitPrice: 42.5, taxRate: 9 },
        ],
      });
    expect((await invoice()).status).toBe(201); // the caller and the statements warmed
    await server.callersHeard();

    let status = 0;
    const trips = await tripsDuring(async () => {
      status = (await invoice()).status;
    });
    expect(status).toBe(201);
    expect(trips).toHaveLength(3);
    expect(
      trips[0].some((s) => /from "tenant"/.test(s)) && trips[0].some((s) => /from "customer"/.test(s)),
    ).toBe(true);
    expect(trips[1].map((s) => /invoice_pdf_due|tenant_sequence/.exec(s)?.[0])).toEqual([
      'invoice_pdf_due',
      'tenant_sequence',
    ]);
    expect(trips[2].some((s) => /^insert into "invoice"/.test(s))).toBe(true);
  });
});
