import http from 'node:http';

/**
 * Clients that keep their connections alive and send one request after another (a create of a
 * concept each, named uniquely) until one is refused: what a stop must treat as docs/operations.md
 * says. Used across an app.close() and across a SIGTERM to the service's process.
 */
export interface Outcome {
  name: string;
  /** The client's connection (a socket of the agent), to count answers per connection. */
  socket: number;
  sentAfterStop: boolean;
  status?: number;
  connection?: string;
  body?: { name?: string };
  error?: string;
}

export interface KeepAliveLoad {
  /** Requests sent so far. */
  sent(): number;
  /** Marks the requests sent from now on as sent after the stop began. */
  stopBegins(): void;
  /** Every request's outcome, once every client has been refused. */
  done: Promise<Outcome[]>;
}

export function keepAliveLoad(
  baseUrl: string,
  token: string,
  clients: number,
  prefix: string,
): KeepAliveLoad {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const url = new URL(`${baseUrl}/api/v1/concepts`);
  const sockets = new Map<object, number>();
  let stopBegan = false;
  let serial = 0;

  const post = (name: string): Promise<Outcome> =>
    new Promise((resolve) => {
      const payload = JSON.stringify({ name });
      const outcome: Outcome = { name, socket: -1, sentAfterStop: stopBegan };
      const req = http.request(
        url,
        {
          method: 'POST',
          agent,
          headers: {
            authorization: `Bearer ${token}`,
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

  const client = async (id: number): Promise<Outcome[]> => {
    const done: Outcome[] = [];
    for (;;) {
      const outcome = await post(`${prefix} ${id}-${serial++}`);
      done.push(outcome);
      if (outcome.error) return done;
    }
  };

  const all = Array.from({ length: clients }, (_, i) => client(i));
  return {
    sent: () => serial,
    stopBegins: () => {
      stopBegan = true;
    },
    done: Promise.all(all).then((lists) => {
      agent.destroy();
      return lists.flat();
    }),
  };
}

/**
 * Checks what a stop did to the clients' requests, and returns the names of the records answered
 * as created: nothing was cut off (an answer is whole; an error is a refused connection, or a
 * request refused on a connection the server was closing), every answer to a request sent once
 * the stop began says `Connection: close`, each connection has at most one such answer, and every
 * client ended refused.
 */
export function expectStoppedAsDocumented(outcomes: Outcome[], clients: number): string[] {
  for (const o of outcomes) {
    if (o.error) expect(o.error).toMatch(/^(ECONNREFUSED|ECONNRESET|socket hang up)$/);
    else {
      expect(o.status).toBe(201);
      expect(o.body?.name).toBe(o.name);
    }
  }
  const afterStop = outcomes.filter((o) => o.sentAfterStop && !o.error);
  for (const o of afterStop) expect(o.connection).toBe('close');
  const perSocket = new Map<number, number>();
  for (const o of afterStop) perSocket.set(o.socket, (perSocket.get(o.socket) ?? 0) + 1);
  for (const n of perSocket.values()) expect(n).toBe(1);
  expect(afterStop.length).toBeLessThanOrEqual(clients);
  expect(outcomes.filter((o) => o.error)).toHaveLength(clients);
  return outcomes.filter((o) => !o.error).map((o) => o.name);
}
