import type http from 'node:http';
import type { Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { errorBody } from '../errors';
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
