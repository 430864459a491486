import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { localSettings, startServer, type TestServer, type TestTenant } from './file-suite';

/**
 * The two-step upload's local target on a slow link: the body is not held to the receive limit
 * (REQUEST_RECEIVE_TIMEOUT, 1 s here) as a whole, only each gap in it; a stalled one is a 408;
 * a ticket that expires gives its reservation of the quota back.
 */
const RECEIVE_S = 1;
const TICKET_S = 5;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bms-slow-upload-'));

interface Ticket {
  fileId: string;
  url: string;
  fields: Record<string, string>;
}

/**
 * Sends `content` to a ticket's URL as multipart/form-data, `chunks` pieces `gapMs` apart;
 * with `stallAfter`, stops sending after that many pieces (the connection stays open).
 */
function sendSlowly(
  server: TestServer,
  ticket: Ticket,
  content: Buffer,
  { chunks, gapMs, stallAfter }: { chunks: number; gapMs: number; stallAfter?: number },
): Promise<{ status: number; body: any; ms: number }> {
  const boundary = 'slowboundary';
  const fields = Object.entries(ticket.fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('');
  const body = Buffer.concat([
    Buffer.from(
      `${fields}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.txt"\r\nContent-Type: text/plain\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const url = new URL(server.baseUrl + ticket.url);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        method: 'POST',
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': body.length,
        },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => {
          const text = Buffer.concat(parts).toString();
          resolve({
            status: res.statusCode!,
            body: text ? JSON.parse(text) : undefined,
            ms: Date.now() - started,
          });
          req.destroy();
        });
      },
    );
    req.on('error', reject);
    const size = Math.ceil(body.length / chunks);
    let sent = 0;
    const next = () => {
      if (req.destroyed || (stallAfter !== undefined && sent === stallAfter)) return;
      req.write(body.subarray(sent * size, (sent + 1) * size));
      sent += 1;
      if (sent < chunks) setTimeout(next, gapMs);
      else req.end();
    };
    next();
  });
}

describe('two-step uploads on a slow link', () => {
  let server: TestServer;
  let a: TestTenant;
  beforeAll(async () => {
    server = await startServer({
      http: { receiveTimeoutSeconds: RECEIVE_S },
      files: localSettings(dir, { FILES_UPLOAD_TTL_SECONDS: String(TICKET_S) }),
    });
    a = await server.tenant('Slow link');
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const ticket = async (size: number) =>
    a.client.post('/file-uploads', { name: 'slow.txt', type: 'text/plain', size });

  it('takes a body that arrives over several receive limits, a little at a time', async () => {
    const content = Buffer.alloc(40_000, 'a');
    const t = await ticket(content.length);
    expect(t.status).toBe(200);
    const sent = await sendSlowly(server, t.body, content, { chunks: 12, gapMs: 250 });
    expect(sent.status).toBe(204);
    expect(sent.ms).toBeGreaterThan(2 * RECEIVE_S * 1000);
    const done = await a.client.post(`/file-uploads/${t.body.fileId}/complete`);
    expect(done.status).toBe(201);
    expect(done.body.file).toMatchObject({ blobId: t.body.fileId, fileSize: content.length });
    // The limit still holds for a request to any other route.
    expect((await a.client.get('/concepts/find-all')).status).toBe(200);
  });

  it('answers 408 to a body that stops arriving for longer than the limit, and keeps nothing', async () => {
    const content = Buffer.alloc(40_000, 'b');
    const t = await ticket(content.length);
    const sent = await sendSlowly(server, t.body, content, { chunks: 10, gapMs: 50, stallAfter: 4 });
    expect(sent.status).toBe(408);
    expect(sent.body).toMatchObject({ status: 408, title: 'Request Timeout' });
    expect(sent.body.detail).toMatch(new RegExp(`no bytes of the request's body arrived for ${RECEIVE_S} s`));
    expect(sent.ms).toBeLessThan(RECEIVE_S * 1000 + 2500);
    const done = await a.client.post(`/file-uploads/${t.body.fileId}/complete`);
    expect(done.status).toBe(409);
  });

  it("releases an expired ticket's reservation of the quota", async () => {
    const settings = await a.client.put('/file-settings', { quotaBytes: 200_000 });
    expect(settings.status).toBe(200);
    // The files above take 40,000 bytes; the stalled ticket's 40,000 are reserved until it expires.
    const first = await ticket(100_000);
    expect(first.status).toBe(200);
    expect((await ticket(100_000)).status).toBe(413);
    await new Promise((r) => setTimeout(r, TICKET_S * 1000 + 500));
    const used = await a.client.get('/file-settings');
    expect(used.body.usedBytes).toBe(40_000);
    expect((await ticket(150_000)).status).toBe(200);
  }, 30_000);
});
