import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  at: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * How the receiver answers one request: a status at once; `hang` holds the request open until the
 * receiver closes (or the sender gives up); `reset` destroys the connection; `{ status, afterMs }`
 * answers late; `{ redirect }` answers 307 to that URL.
 */
export type Answer = number | 'hang' | 'reset' | { status: number; afterMs: number } | { redirect: string };

/**
 * A webhook receiver on 127.0.0.1 for tests: records every request (and when it arrived), answers
 * each with what `answer` says, and counts, per path, the requests open at once (`busiest`) and
 * those the sender abandoned before an answer (`abandoned`).
 */
export async function startReceiver(answer: (req: Received, nth: number) => Answer = () => 200) {
  const received: Received[] = [];
  const hanging = new Set<http.ServerResponse>();
  const open = new Map<string, number>();
  const busiest = new Map<string, number>();
  const abandoned = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const path = req.url ?? '';
    open.set(path, (open.get(path) ?? 0) + 1);
    busiest.set(path, Math.max(busiest.get(path) ?? 0, open.get(path)!));
    res.on('close', () => {
      open.set(path, open.get(path)! - 1);
      if (!res.writableFinished) abandoned.set(path, (abandoned.get(path) ?? 0) + 1);
    });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got: Received = {
        path,
        at: Date.now(),
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(got);
      const nth = received.filter((r) => r.path === got.path).length;
      const how = answer(got, nth);
      const reply = (status: number) =>
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'try again');
      if (how === 'hang') hanging.add(res);
      else if (how === 'reset') req.socket.destroy();
      else if (typeof how === 'number') reply(how);
      else if ('redirect' in how) res.writeHead(307, { location: how.redirect }).end();
      else {
        hanging.add(res);
        setTimeout(() => !res.destroyed && reply(how.status), how.afterMs);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    at: (path: string) => received.filter((r) => r.path === path),
    busiest: (path: string) => busiest.get(path) ?? 0,
    abandoned: (path: string) => abandoned.get(path) ?? 0,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Polls `check` until it returns something truthy (or throws after `ms`). */
export async function waitFor<T>(
  check: () => Promise<T> | T,
  ms = 15_000,
  what = 'condition',
): Promise<Exclude<T, false | null | undefined | 0 | ''>> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value as Exclude<T, false | null | undefined | 0 | ''>;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
