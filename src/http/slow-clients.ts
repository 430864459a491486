import type http from 'node:http';
import type { Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { AppError, errorBody, titleFor } from '../errors';
import type { Logger } from '../logger';
import type { Metrics } from '../observability/metrics';

/** REQUEST_RECEIVE_TIMEOUT's default: a 1 MiB body (the limit) arrives well within it. */
export const DEFAULT_RECEIVE_TIMEOUT_SECONDS = 10;

/**
 * The HTTP server's limits on how long a request may take to arrive, in Node's own timers: a
 * request whose headers and body are not all received within `seconds` of its first byte is
 * answered 408 and its connection closed. Node checks these limits every
 * `connectionsCheckingInterval`, 30 s by default, which let a stalled body hold its connection
 * for up to a minute; the check runs here at least every second. Each waiting connection costs a
 * socket and a parser, no request handler and no database connection, so clients that stall
 * their headers or bodies do not take the service's capacity away from others.
 */
export function receiveLimits(seconds: number): http.ServerOptions {
  const ms = seconds * 1000;
  return {
    requestTimeout: ms,
    headersTimeout: ms,
    connectionsCheckingInterval: Math.min(1000, Math.max(100, ms / 4)),
  };
}

const HTTP_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout'],
};

/**
 * Answers what Node's parser and timers refuse before the application sees a request: a request
 * not received in time is a 408 in the documented error body (docs/conventions.md), counted and
 * logged; malformed requests get Node's usual 400 (431 for headers too large). Node writes these
 * answers itself only when nothing listens for `clientError`, and then without a body.
 */
export function answerClientErrors(
  server: http.Server,
  seconds: number,
  logger: Logger,
  metrics: Metrics,
): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT' && keepsReceiving(socket)) return;
    const inFlight = (socket as Socket & { _httpMessage?: http.ServerResponse | null })._httpMessage;
    const code = err.code ?? '';
    const [status, title] = HTTP_ERRORS[code] ?? [400, 'Bad Request'];
    let detail = 'the request is malformed';
    if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      // Headers complete means the application was handed the request: its body stalled.
      const phase = inFlight ? 'body' : 'headers';
      metrics.countReceiveTimeout(phase);
      detail = `the request's ${phase} did not arrive in full within ${seconds} s`;
      logger.info({ phase, remoteAddress: socket.remoteAddress }, 'request not received in time');
    } else if (status === 431) detail = 'the request headers are too large';
    // An answer already under way on this connection cannot be followed by another.
    if (socket.writable && !inFlight?.headersSent) {
      const body = JSON.stringify(
        errorBody(status, detail, String(inFlight?.getHeader('x-request-id') ?? randomUUID()), title),
      );
      socket.write(
        `HTTP/1.1 ${status} ${title}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\n\r\n${body}`,
      );
    }
    socket.destroySoon();
  });
}

/** The connections whose request is exempt from the receive limit, with their error listeners. */
const exempt = new WeakMap<Socket, ((err: Error) => void)[]>();

/**
 * Node's request timer fired for a connection whose request was exempted (receiveWithoutLimit):
 * it is ignored. Node took its own error listener off the socket before telling, so it is put
 * back; the timer does not fire again for the same request.
 */
function keepsReceiving(socket: Socket): boolean {
  const listeners = exempt.get(socket);
  if (!listeners) return false;
  for (const listener of listeners)
    if (!socket.listeners('error').includes(listener)) socket.on('error', listener);
  return true;
}

/** How a request received without the receive limit was cut short, if it was. */
export interface Receiving {
  /** Aborted with a 408 when the body stalls or the deadline passes. */
  signal: AbortSignal;
  /** The receive limit is back for the connection's next request; the timers are cleared. */
  done(): void;
}

/**
 * Exempts one request from the receive limit (`requestTimeout`), for a body that may take long
 * on a slow link (the two-step upload's local target): it is held instead to `idleSeconds`
 * without a byte, and to `deadline`. Either cut answers 408 (`signal`'s reason).
 *
 * Node has no per-request setting for its timer: it checks every connection with a request in
 * progress and reports an overdue one as a `clientError`, which answerClientErrors then ignores
 * for this connection. The exemption ends with `done()`.
 */
export function receiveWithoutLimit(
  req: http.IncomingMessage,
  idleSeconds: number,
  deadline: Date | null,
): Receiving {
  const socket = req.socket;
  exempt.set(socket, socket.listeners('error') as ((err: Error) => void)[]);
  const abort = new AbortController();
  const cut = (detail: string) => {
    if (!abort.signal.aborted) abort.abort(new AppError(408, titleFor(408), detail));
  };
  const onIdle = () => cut(`no bytes of the request's body arrived for ${idleSeconds} s`);
  req.setTimeout(idleSeconds * 1000, onIdle);
  const left = deadline ? Math.max(0, deadline.getTime() - Date.now()) : undefined;
  const late =
    left === undefined
      ? undefined
      : setTimeout(
          () => cut('the upload did not arrive in full before its ticket expired'),
          Math.min(left, 2 ** 31 - 1),
        );
  late?.unref();
  return {
    signal: abort.signal,
    done() {
      clearTimeout(late);
      req.off('timeout', onIdle);
      socket.setTimeout(0);
      exempt.delete(socket);
    },
  };
}
