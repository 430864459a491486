import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import WebSocket from 'ws';
import { sharedJsonOf } from './shared-results';

/**
 * What one event costs per socket, once its result is computed for all of them
 * (shared-results.ts): a message and a write. Both are made cheap here.
 *
 * - **The message.** graphql-ws serialises each socket's `next` message whole, the result with it,
 *   although every socket of one document carries the same result. Its `jsonMessageReplacer`
 *   (`messageReplacer`) puts a mark where a shared result goes, and the socket (`FanoutSocket`)
 *   puts the result's JSON, made once per event and document, in the mark's place. Only the
 *   message's end can hold the mark: the socket's subscription id comes first, and a client's own
 *   text is escaped within its JSON string, so it cannot forge the end.
 * - **The write.** Each message is one frame, and ws writes every frame at once: one system call
 *   per socket and event. A `FanoutSocket` holds its connection's writes until the event loop's
 *   turn ends (`cork`) and answers graphql-ws's send at once while little is buffered, so every
 *   message the turn makes for a socket (a batch of events: events/live.ts) leaves in one write.
 *   A socket with more than `BUFFERED_LIMIT` bytes waiting makes graphql-ws wait for its writes, so
 *   a client that does not read fills its subscription's queue, which ends it, as before.
 */
const MARK = `shared-result:${randomUUID()}`;
const TAIL = `"payload":${JSON.stringify(MARK)}}`;
const BUFFERED_LIMIT = 256 * 1024;

/** The shared result the last message marked: the socket's send follows its serialisation at once. */
let marked: string | undefined;

/** graphql-ws's `jsonMessageReplacer`: a shared result's place in a message is marked. */
export function messageReplacer(key: string, value: unknown): unknown {
  if (key !== 'payload') return value;
  const json = sharedJsonOf(value);
  if (json === undefined) return value;
  marked = json;
  return MARK;
}

/** A message as it goes on the wire: a marked place filled with the shared result's JSON. */
function filled(data: string): string {
  if (marked === undefined || !data.endsWith(TAIL)) return data;
  const json = marked;
  marked = undefined;
  return `${data.slice(0, data.length - TAIL.length)}"payload":${json}}`;
}

const corked = new Set<Duplex>();
let uncorking = false;

function uncorkAll(): void {
  uncorking = false;
  for (const connection of corked) connection.uncork();
  corked.clear();
}

type SendCallback = (err?: Error) => void;

/** The server's WebSocket class (ws's `WebSocket` option), with the message and write above. */
export class FanoutSocket extends WebSocket {
  /** The TCP connection under the WebSocket, set at the upgrade (its request's socket). */
  connection?: Duplex;

  override send(data: unknown, optionsOrCallback?: unknown, callback?: SendCallback): void {
    const cb = (typeof optionsOrCallback === 'function' ? optionsOrCallback : callback) as
      SendCallback | undefined;
    const options = (typeof optionsOrCallback === 'object' && optionsOrCallback) || {};
    const message = (typeof data === 'string' ? filled(data) : data) as string | Buffer;
    const connection = this.connection;
    if (!connection || this.readyState !== WebSocket.OPEN) return super.send(message, options, cb);
    if (!corked.has(connection)) {
      connection.cork();
      corked.add(connection);
      if (!uncorking) {
        uncorking = true;
        setImmediate(uncorkAll);
      }
    }
    if (!cb || this.bufferedAmount >= BUFFERED_LIMIT) return super.send(message, options, cb);
    // A failed write closes the socket, and that ends its subscriptions.
    super.send(message, options);
    queueMicrotask(() => cb());
  }
}
