import { Client, expectErrorBody } from '../support/http';
import { errorLines } from '../support/process';
import { deployment, startPair, type Deployment, type ProcessPair } from './deployment';

/**
 * The per-tenant rate limit across two service processes sharing one Redis: a tenant's requests
 * count against one budget whichever process answers them and whichever credential sends them.
 * Needs DATABASE_URL and the Redis at REDIS_URL (default 127.0.0.1:6379).
 */
const onServer = process.env.DATABASE_URL ? describe : describe.skip;
jest.setTimeout(300_000);

const TENANT_LIMIT = 30;

onServer('the per-tenant rate limit across two processes', () => {
  let d: Deployment;
  let pair: ProcessPair | undefined;
  let bases: string[] = [];

  beforeAll(async () => {
    d = await deployment('tenant_limit');
    pair = await startPair(d, {
      // Only the tenant's budget limits: every request below uses a credential of its own.
      RATE_LIMIT_PER_CREDENTIAL: '0',
      RATE_LIMIT_PER_TENANT: String(TENANT_LIMIT),
      DB_POOL_SIZE: '3',
    });
    bases = pair.bases;
  });

  afterAll(async () => {
    await pair?.stop();
    await d?.close();
  });

  it("counts a tenant's requests through both processes against one limit, and no other tenant's", async () => {
    const busy = await d.tenant('Busy');
    const quiet = await d.tenant('Quiet');
    // Alternating processes, a new credential each time: each process answers half the requests,
    // so a limit counted in each process's memory would not be reached.
    for (let i = 0; i < TENANT_LIMIT; i++) {
      const res = await new Client(bases[i % 2], busy.token()).get('/notifications/unread-count');
      expect(res.status).toBe(200);
    }
    for (const base of bases) {
      const refused = await new Client(base, busy.token()).get('/notifications/unread-count');
      expectErrorBody(refused, 429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    for (const base of bases)
      expect((await new Client(base, quiet.token()).get('/notifications/unread-count')).status).toBe(200);
    for (const s of pair!.services) expect(errorLines(s.stdout())).toEqual([]);
  });
});
