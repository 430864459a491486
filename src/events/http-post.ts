import http from 'node:http';
import https from 'node:https';
import { RESPONSE_BODY_LIMIT } from './settings';
import { guardedLookup, urlProblem } from './targets';

export interface PostOutcome {
  statusCode: number | null;
  /** The start of the response body, or the reason the request failed. */
  error: string | null;
  durationMs: number;
}

/**
 * Connections are kept alive between deliveries (Node's own agent, one pool per host and port), so
 * a busy endpoint is not paid a TCP and TLS handshake per event. The worker bounds how many
 * requests are in flight; the agent's socket limit is only a backstop above that.
 */
const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

/** Sizes the connection pools to the worker's concurrency (set once at the worker's start). */
export function sizeAgents(maxSockets: number): void {
  for (const agent of [agents.http, agents.https]) {
    agent.maxSockets = maxSockets;
    agent.maxFreeSockets = maxSockets;
  }
}

export interface PostOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** Aborts the request (its delivery was taken away: the endpoint was deleted). */
  signal?: AbortSignal;
}

/**
 * POSTs one webhook: no redirects followed (a 3xx is a failed attempt), the whole exchange
 * bounded by `timeoutMs`, at most RESPONSE_BODY_LIMIT bytes of the answer read, and the target's
 * address checked again after resolution (targets.ts). A kept-alive connection the receiver
 * closed just as it was reused is not the receiver's failure: the request is sent once more on a
 * new one (as Node's documentation advises).
 */
export function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: PostOptions,
): Promise<PostOutcome> {
  return postBytes(url, { ...headers, 'content-type': 'application/json' }, body, options);
}

/**
 * POSTs `body` with `headers` as they are (postWebhook's rules: no redirects, bounded time and
 * answer, the target's address checked); Web Push sends its encrypted payloads so.
 */
export async function postBytes(
  url: string,
  headers: Record<string, string>,
  body: string | Buffer,
  options: PostOptions,
): Promise<PostOutcome> {
  const first = await postOnce(url, headers, body, options);
  return first.retry ? (await postOnce(url, headers, body, options)).outcome : first.outcome;
}

function postOnce(
  url: string,
  headers: Record<string, string>,
  body: string | Buffer,
  options: PostOptions,
): Promise<{ outcome: PostOutcome; retry: boolean }> {
  const started = Date.now();
  const done = (statusCode: number | null, error: string | null): PostOutcome => ({
    statusCode,
    error,
    durationMs: Date.now() - started,
  });
  const problem = urlProblem(url, options.allowPrivate);
  if (problem) return Promise.resolve({ outcome: done(null, `refused: ${problem}`), retry: false });
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  const client = secure ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: PostOutcome, retry = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', abort);
      resolve({ outcome, retry });
    };
    const req = client.request(
      target,
      {
        method: 'POST',
        headers: {
          'user-agent': 'business-management-service-webhooks/1',
          ...headers,
          'content-length': Buffer.byteLength(body),
        },
        lookup: guardedLookup(options.allowPrivate),
        agent: secure ? agents.https : agents.http,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const end = () => {
          const status = res.statusCode ?? 0;
          const text = Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_BODY_LIMIT);
          finish(done(status, status >= 200 && status < 300 ? null : text || `HTTP ${status}`));
        };
        res.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_BODY_LIMIT) chunks.push(chunk.subarray(0, RESPONSE_BODY_LIMIT - size));
          size += chunk.length;
          if (size >= RESPONSE_BODY_LIMIT) {
            end();
            res.destroy();
          }
        });
        res.on('end', end);
        res.on('error', (err) => finish(done(res.statusCode ?? null, err.message)));
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`timed out after ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    const abort = () => req.destroy(new Error('aborted: the delivery was withdrawn'));
    if (options.signal?.aborted) abort();
    else options.signal?.addEventListener('abort', abort, { once: true });
    req.on('error', (err: NodeJS.ErrnoException) =>
      finish(done(null, err.message), req.reusedSocket && err.code === 'ECONNRESET'),
    );
    req.end(body);
  });
}
