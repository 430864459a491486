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
 * POSTs one webhook: no redirects followed (a 3xx is a failed attempt), the whole exchange
 * bounded by `timeoutMs`, at most RESPONSE_BODY_LIMIT bytes of the answer read, and the target's
 * address checked again after resolution (targets.ts).
 */
export function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; allowPrivate: boolean },
): Promise<PostOutcome> {
  const started = Date.now();
  const done = (statusCode: number | null, error: string | null): PostOutcome => ({
    statusCode,
    error,
    durationMs: Date.now() - started,
  });
  const problem = urlProblem(url, options.allowPrivate);
  if (problem) return Promise.resolve(done(null, `refused: ${problem}`));
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = client.request(
      target,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'business-management-service-webhooks/1',
        },
        lookup: guardedLookup(options.allowPrivate),
        agent: false,
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
    req.on('error', (err) => finish(done(null, err.message)));
    req.end(body);
  });
}
