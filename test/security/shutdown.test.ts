import { startServer, type TestServer, type TestTenant } from '../support/server';

/**
 * What SIGTERM does (src/main.ts calls app.close(), then closes the database and exits 0; the CI
 * smoke test checks the exit code): requests in flight finish with their normal answers, and
 * new connections are refused cleanly rather than hanging or erroring half-way.
 */
describe('graceful shutdown under load', () => {
  let server: TestServer;
  let a: TestTenant;
  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Shutdown');
  });

  it('finishes requests in flight and refuses new ones', async () => {
    // Close as soon as some requests have reached the server and before they are answered.
    let arrived = 0;
    const reached = new Promise<void>((resolve) =>
      server.app.server.on('request', () => {
        if (++arrived === 5) resolve();
      }),
    );
    const inFlight = Array.from({ length: 20 }, (_, i) =>
      a.client.post('/concepts', { name: `in-flight ${i}` }),
    );
    await reached;
    const closing = server.app.close();
    const late = await fetch(`${server.baseUrl}/healthz`).then(
      (r) => r.status,
      (err) => String(err?.cause?.code ?? err),
    );
    const results = await Promise.allSettled(inFlight);
    await closing;
    const answered = results
      .filter((r) => r.status === 'fulfilled')
      .map((r) => (r as PromiseFulfilledResult<{ status: number }>).value.status);
    // Everything that reached the server got its real answer; nothing was cut off with a 5xx.
    expect(answered.every((s) => s === 201)).toBe(true);
    expect(answered.length).toBeGreaterThan(0);
    const rejected = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    for (const r of rejected)
      expect(String(r.reason?.cause?.code ?? r.reason)).toMatch(/ECONNREFUSED|ECONNRESET|fetch failed/);
    // A request that arrives after the close began is refused, not left hanging.
    expect(String(late)).toMatch(/ECONNREFUSED|ECONNRESET|fetch failed|503/);
    await expect(fetch(`${server.baseUrl}/healthz`)).rejects.toThrow();
    // What was acknowledged is stored.
    const em = server.orm.em.fork();
    const [row] = await em
      .getConnection()
      .execute(`select count(*)::int as n from concept where tenant_id = ? and name like 'in-flight %'`, [
        a.tenantId,
      ]);
    expect(row.n).toBe(answered.length);
    await server.orm.close(true);
  });
});
