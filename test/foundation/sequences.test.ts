import { forkFor } from '../../src/db/tenancy';
import { inTransaction } from '../../src/db/transaction';
import { nextNumber } from '../../src/services/sequences';
import { startServer, type TestServer } from '../support/server';

describe('per-tenant sequences', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('hand out consecutive numbers per tenant under concurrency; a rollback returns its number', async () => {
    const a = await server.tenant('SeqA');
    const b = await server.tenant('SeqB');
    const take = (tenantId: string, fail = false) => {
      const em = forkFor(server.orm.em, { tenantId, userId: null, email: 'test' });
      return inTransaction(em, async () => {
        const n = await nextNumber(em, 'invoice');
        if (fail) throw new Error('rolled back');
        return n;
      });
    };
    const numbers = await Promise.all(Array.from({ length: 20 }, () => take(a.tenantId)));
    expect([...numbers].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    await expect(take(a.tenantId, true)).rejects.toThrow('rolled back');
    expect(await take(a.tenantId)).toBe(21);
    expect(await take(b.tenantId)).toBe(1);
  });
});
