import net from 'node:net';
import { startServer, type TestServer, type TestTenant } from '../support/server';

/**
 * Clients that stop sending: a request whose headers or body do not arrive in full within
 * REQUEST_RECEIVE_TIMEOUT (2 s here) is answered 408 in the documented error body and its
 * connection closed, and each is counted in http_request_receive_timeouts_total; many such
 * clients at once do not keep the service from answering others.
 */

// Long enough that requests sent beside the stalled clients are answered before any of those times
// out, however busy the machine: that order, not a duration, is what the last test checks.
const TIMEOUT_S = 2;

interface RawAnswer {
  status?: number;
  body?: { status?: number; detail?: string; title?: string };
  text: string;
  /** Milliseconds from the first byte sent to the connection's end. */
  ms: number;
}

/** Sends `head` (and nothing more), then reads until the server closes the connection. */
function stall(port: number, head: string): { done: Promise<RawAnswer>; socket: net.Socket } {
  const socket = net.connect(port, '127.0.0.1');
  const started = Date.now();
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  socket.write(head);
  const done = new Promise<RawAnswer>((resolve) => {
    const end = () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
      const json = text.split('\r\n\r\n')[1];
      let body: RawAnswer['body'];
      try {
        body = json ? JSON.parse(json) : undefined;
      } catch {
        body = undefined;
      }
      resolve({ status: status ? Number(status) : undefined, body, text, ms: Date.now() - started });
    };
    socket.on('close', end);
    socket.on('error', () => undefined);
  });
  return { done, socket };
}

async function receiveTimeouts(server: TestServer): Promise<Record<string, number>> {
  const text = await (await fetch(`${server.baseUrl}/metrics`)).text();
  const out: Record<string, number> = { headers: 0, body: 0 };
  for (const m of text.matchAll(/^http_request_receive_timeouts_total\{phase="(\w+)"\} (\d+)/gm))
    out[m[1]] = Number(m[2]);
  return out;
}

describe('slow clients', () => {
  let server: TestServer;
  let a: TestTenant;
  let port: number;
  beforeAll(async () => {
    server = await startServer({ http: { receiveTimeoutSeconds: TIMEOUT_S } });
    a = await server.tenant('Slow');
    port = Number(new URL(server.baseUrl).port);
  });
  afterAll(() => server.close());

  const bodyHead = (declared: number) =>
    `POST /api/v1/concepts HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${a.token}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n{"name":"slow"  `;

  it('a body that stops arriving is a 408 within the timeout, in the error body, and counted', async () => {
    const before = await receiveTimeouts(server);
    const { done } = stall(port, bodyHead(500_000));
    const answer = await done;
    expect(answer.status).toBe(408);
    expect(answer.body).toMatchObject({ status: 408, title: 'Request Timeout' });
    expect(answer.body?.detail).toMatch(new RegExp(`body did not arrive in full within ${TIMEOUT_S} s`));
    expect(answer.text).toMatch(/\r\nConnection: close\r\n/i);
    // Node checks the limit at most a second apart (src/http/slow-clients.ts).
    expect(answer.ms).toBeGreaterThanOrEqual(TIMEOUT_S * 1000 - 50);
    expect(answer.ms).toBeLessThan(TIMEOUT_S * 1000 + 1500);
    expect(await receiveTimeouts(server)).toEqual({ ...before, body: before.body + 1 });
  });

  it('a body declared far over the limit is refused at once, and its connection does not linger', async () => {
    const { done } = stall(port, bodyHead(50 * 1024 * 1024));
    const answer = await done;
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ status: 413 });
    expect(answer.text).toMatch(/\r\nConnection: close\r\n/i);
    expect(answer.ms).toBeLessThan(TIMEOUT_S * 1000);
  });

  it('headers that stop arriving are a 408 within the timeout, and counted', async () => {
    const before = await receiveTimeouts(server);
    const { done } = stall(port, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: `);
    const answer = await done;
    expect(answer.status).toBe(408);
    expect(answer.body?.detail).toMatch(new RegExp(`headers did not arrive in full within ${TIMEOUT_S} s`));
    expect(answer.ms).toBeLessThan(TIMEOUT_S * 1000 + 1500);
    expect(await receiveTimeouts(server)).toEqual({ ...before, headers: before.headers + 1 });
  });

  it('many stalled clients at once do not keep others from being answered', async () => {
    // The first request of a file readies the test client's OpenAPI validators: not timed.
    expect((await a.client.post('/concepts', { name: 'warm' })).status).toBe(201);
    const before = await receiveTimeouts(server);
    const SLOW = 100;
    const stalled = [
      ...Array.from({ length: SLOW }, () => stall(port, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: `)),
      ...Array.from({ length: SLOW }, () => stall(port, bodyHead(500_000))),
    ];
    // While they wait, others are answered as usual: every one of them before the first stalled
    // client is timed out, so none waited for the stalled ones.
    const firstTimedOut = Promise.race(stalled.map((s) => s.done)).then(() => Date.now());
    const answered = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const created = await a.client.post('/concepts', { name: `busy ${i}` });
        expect(created.status).toBe(201);
        expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
        return Date.now();
      }),
    );
    expect(Math.max(...answered)).toBeLessThan(await firstTimedOut);
    const answers = await Promise.all(stalled.map((s) => s.done));
    expect(answers.map((x) => x.status)).toEqual(Array(2 * SLOW).fill(408));
    expect(Math.max(...answers.map((x) => x.ms))).toBeLessThan(TIMEOUT_S * 1000 + 2500);
    expect(await receiveTimeouts(server)).toEqual({
      headers: before.headers + SLOW,
      body: before.body + SLOW,
    });
  });
});
