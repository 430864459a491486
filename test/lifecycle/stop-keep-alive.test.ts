import http from 'node:http';
import { startServer, type TestServer, type TestTenant } from '../support/server';

/**
 * A stop as docs/operations.md describes it, with clients that keep their connections alive and
 * send one request after another across it: once the stop begins every answer carries
 * `Connection: close` and its connection ends after it, so each connection gets at most one more
 * answer; a request is either answered in full or refused before the service read it (its record
 * does not exist), never cut off; and the drain ends promptly.
 */

interface Outcome {
  name: string;
  /** The client's connection (a socket of the agent), to count answers per connection. */
  socket: number;
  sentAfterStop: boolean;
  status?: number;
  connection?: string;
  body?: { name?: string };
  error?: string;
}

const CLIENTS = 8;

describe('stopping with kept-alive connections', () => {
  let server: TestServer;
  let a: TestTenant;
  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Stop');
  });

  it('answers in full or refuses unread, closes each connection after its answer, and drains', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
    const url = new URL(`${server.baseUrl}/api/v1/concepts`);
    const sockets = new Map<object, number>();
    let stopBegan = false;
    let serial = 0;

    const post = (name: string): Promise<Outcome> =>
      new Promise((resolve) => {
        const sentAfterStop = stopBegan;
        const payload = JSON.stringify({ name });
        const outcome: Outcome = { name, socket: -1, sentAfterStop };
        const req = http.request(
          url,
          {
            method: 'POST',
            agent,
            headers: {
              authorization: `Bearer ${a.token}`,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(payload),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              outcome.status = res.statusCode;
              outcome.connection = String(res.headers.connection ?? '');
              try {
                outcome.body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
              } catch {
                outcome.error = 'incomplete body';
              }
              resolve(outcome);
            });
            res.on('error', (err) => resolve({ ...outcome, error: `cut off: ${err.message}` }));
          },
        );
        req.on('socket', (socket) => {
          if (!sockets.has(socket)) sockets.set(socket, sockets.size);
          outcome.socket = sockets.get(socket)!;
        });
        req.on('error', (err: NodeJS.ErrnoException) =>
          resolve({ ...outcome, error: err.code ?? err.message }),
        );
        req.end(payload);
      });

    /** One client: a request after another until one is refused. */
    const client = async (id: number): Promise<Outcome[]> => {
      const done: Outcome[] = [];
      for (;;) {
        const outcome = await post(`keep-alive ${id}-${serial++}`);
        done.push(outcome);
        if (outcome.error) return done;
      }
    };

    const answered = () => serial;
    const clients = Array.from({ length: CLIENTS }, (_, i) => client(i));
    // Stop once every client is well under way.
    while (answered() < CLIENTS * 5) await new Promise((r) => setTimeout(r, 5));
    stopBegan = true;
    const started = Date.now();
    await server.app.close();
    const drained = Date.now() - started;
    const outcomes = (await Promise.all(clients)).flat();
    agent.destroy();

    // Nothing was cut off: an answer is whole, an error is a refusal of a connection or of a
    // request on a connection the server was closing.
    for (const o of outcomes) {
      if (o.error) expect(o.error).toMatch(/^(ECONNREFUSED|ECONNRESET|socket hang up)$/);
      else {
        expect(o.status).toBe(201);
        expect(o.body?.name).toBe(o.name);
      }
    }
    // Every request sent once the stop had begun that was answered says the connection closes,
    // and each connection has at most one answer after the stop began.
    const afterStop = outcomes.filter((o) => o.sentAfterStop && !o.error);
    for (const o of afterStop) expect(o.connection).toBe('close');
    const perSocket = new Map<number, number>();
    for (const o of afterStop) perSocket.set(o.socket, (perSocket.get(o.socket) ?? 0) + 1);
    for (const n of perSocket.values()) expect(n).toBe(1);
    expect(afterStop.length).toBeLessThanOrEqual(CLIENTS);

    // What was answered is stored; what was refused was never read.
    const rows = await server.orm.em
      .fork()
      .getConnection()
      .execute<{ name: string }[]>(
        `select name from concept where tenant_id = ? and name like 'keep-alive %'`,
        [a.tenantId],
      );
    const stored = new Set(rows.map((r: { name: string }) => r.name));
    const answeredNames = outcomes.filter((o) => !o.error).map((o) => o.name);
    // Those sent before the stop, bar the ones in flight when it began, at the least.
    expect(answeredNames.length).toBeGreaterThanOrEqual(CLIENTS * 4);
    expect([...stored].sort()).toEqual(answeredNames.sort());

    // Every client ended with a refusal, and the drain took no longer than its last answers.
    expect(outcomes.filter((o) => o.error)).toHaveLength(CLIENTS);
    expect(drained).toBeLessThan(3_000);
  });
  // The app was closed by the test; its database connection is closed here.
  afterAll(() => server.orm.close(true));
});
