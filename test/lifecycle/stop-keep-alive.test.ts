import { expectStoppedAsDocumented, keepAliveLoad } from '../support/keep-alive';
import { startServer, type TestServer, type TestTenant } from '../support/server';

/**
 * A stop as docs/operations.md describes it, with clients that keep their connections alive and
 * send one request after another across it: once the stop begins every answer carries
 * `Connection: close` and its connection ends after it, so each connection gets at most one more
 * answer; a request is either answered in full or refused before the service read it (its record
 * does not exist), never cut off; and the drain ends promptly. test/lifecycle/service-process.test.ts
 * does the same across a SIGTERM to the service's process.
 */

const CLIENTS = 8;

describe('stopping with kept-alive connections', () => {
  let server: TestServer;
  let a: TestTenant;
  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Stop');
  });
  // The app is closed by the test; its database connection is closed here.
  afterAll(() => server.orm.close(true));

  it('answers in full or refuses unread, closes each connection after its answer, and drains', async () => {
    const load = keepAliveLoad(server.baseUrl, a.token, CLIENTS, 'keep-alive');
    // Stop once every client is well under way.
    while (load.sent() < CLIENTS * 5) await new Promise((r) => setTimeout(r, 5));
    load.stopBegins();
    const started = Date.now();
    await server.app.close();
    const drained = Date.now() - started;
    const answered = expectStoppedAsDocumented(await load.done, CLIENTS);

    // What was answered is stored; what was refused was never read.
    const rows = await server.orm.em
      .fork()
      .getConnection()
      .execute<{ name: string }[]>(
        `select name from concept where tenant_id = ? and name like 'keep-alive %'`,
        [a.tenantId],
      );
    // Those sent before the stop, bar the ones in flight when it began, at the least.
    expect(answered.length).toBeGreaterThanOrEqual(CLIENTS * 4);
    expect(rows.map((r: { name: string }) => r.name).sort()).toEqual(answered.sort());
    // The drain took no longer than the last answers.
    expect(drained).toBeLessThan(3_000);
  });
});
