import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { createApp } from '../src/app';
import type { JwtSettings } from '../src/auth/jwt';
import { openOrm } from '../src/db/orm';
import { createLogger } from '../src/logger';
import { ormComposition } from '../src/orm-composition';
import type { HttpRequest } from './scenarios';

/**
 * Every statement one request sends to PostgreSQL, as the driver sends it. The service runs
 * in-process here (the measured one is a separate process, untouched) with `pg`'s
 * Client.prototype.query wrapped, so BEGIN, set_config and COMMIT count like any other statement.
 * One request at a time: statements are attributed to whichever request is being recorded.
 */
export interface Statement {
  sql: string;
  params: unknown[];
  /** The round trip it went in: statements sent together in one pipeline share it. */
  trip: number;
}

export interface Capture {
  /** The statements of one request, in order. */
  run(req: HttpRequest, token: string): Promise<{ status: number; body: unknown; statements: Statement[] }>;
  close(): Promise<void>;
}

type Query = (this: Client, ...args: unknown[]) => unknown;

export async function startCapture(databaseUrl: string, jwt: JwtSettings): Promise<Capture> {
  let recording: Statement[] | null = null;
  let trips = 0;
  const original = Client.prototype.query as unknown as Query;
  (Client.prototype as unknown as { query: Query }).query = function (this: Client, ...args: unknown[]) {
    const [first, second] = args;
    if (recording) {
      const trip = trips++;
      const config =
        typeof first === 'object' && first !== null
          ? (first as {
              text?: string;
              values?: unknown[];
              statements?: { text: string; values?: unknown[] }[];
            })
          : {};
      if (config.statements)
        for (const s of config.statements)
          recording.push({ sql: s.text, params: [...(s.values ?? [])], trip });
      else {
        const sql = typeof first === 'string' ? first : (config.text ?? '');
        const params = Array.isArray(second) ? second : (config.values ?? []);
        recording.push({ sql, params, trip });
      }
    }
    return original.apply(this, args);
  };

  const orm = await openOrm({ composition: ormComposition, clientUrl: databaseUrl, poolMax: 2 });
  const app = await createApp({ orm, jwt, logger: createLogger('silent'), production: true });
  await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  return {
    async run(req, token) {
      recording = [];
      const send = () =>
        fetch(`${base}${req.path}`, {
          method: req.method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: req.body,
        });
      try {
        // Minutes pass between captures while data loads: the server closes the idle keep-alive
        // socket, and a request sent on it just then fails before it reaches the server.
        const res = await send().catch(() => send());
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : null, statements: recording };
      } finally {
        recording = null;
      }
    },
    async close() {
      (Client.prototype as unknown as { query: Query }).query = original;
      await app.close();
      await orm.close(true);
    },
  };
}
