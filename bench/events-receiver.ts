/**
 * The drain's webhook receiver, in a process of its own (so it does not take the worker's CPU):
 * answers 200 at once, or after BENCH_SLOW_MS on the path BENCH_SLOW_PATH; counts deliveries per
 * path, the repeated webhook-ids, and each delivery's lag (arrival minus the event's occurredAt)
 * and arrival time.
 * Tells its URL, then its figures whenever asked, over IPC.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const SLOW_MS = Number(process.env.BENCH_SLOW_MS ?? 0);
const SLOW_PATH = process.env.BENCH_SLOW_PATH ?? '';
const hits: Record<string, number> = {};
const lags: Record<string, number[]> = {};
/** When each lag in `lags` was measured (ms since the epoch), in the same order. */
const arrivals: Record<string, number[]> = {};
const seen = new Set<string>();
const duplicates: string[] = [];

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const path = req.url ?? '';
    const key = `${path} ${String(req.headers['webhook-id'])}`;
    if (seen.has(key)) duplicates.push(key);
    seen.add(key);
    const occurred = Date.parse(
      (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { occurredAt: string }).occurredAt,
    );
    const answer = () => {
      hits[path] = (hits[path] ?? 0) + 1;
      const now = Date.now();
      (lags[path] ??= []).push(now - occurred);
      (arrivals[path] ??= []).push(now);
      res.writeHead(200).end('ok');
    };
    if (SLOW_MS > 0 && path === SLOW_PATH) setTimeout(answer, SLOW_MS);
    else answer();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.send!({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
process.on('message', (m: string) => {
  if (m === 'stats') process.send!({ hits, lags, arrivals, duplicates });
  if (m === 'reset')
    for (const k of Object.keys(lags)) {
      delete lags[k];
      delete arrivals[k];
    }
  if (m === 'stop') server.close(() => process.exit(0));
});
