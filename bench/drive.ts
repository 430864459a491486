import autocannon from 'autocannon';
import type { HttpRequest } from './scenarios';

/**
 * Load from this (orchestrating) process with autocannon: a fixed number of connections for a
 * fixed time, each connection sending its next request as soon as the last one is answered.
 */
export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  mean: number;
  /** Answers other than 2xx, connection errors and timeouts. */
  failures: number;
}

export interface LoadOptions {
  base: string;
  token: string;
  connections: number;
  /** Seconds; ignored when `amount` is given. */
  duration: number;
  /** Stop after this many requests instead (warm-up). */
  amount?: number;
  /** Requests per second over all connections (soak); unlimited when absent. */
  rate?: number;
  /** The i-th request of the run. */
  request(i: number): HttpRequest;
  /** Called with each answer as it arrives (its status and body). */
  onResponse?(status: number, body: string): void;
}

export async function drive(options: LoadOptions): Promise<LoadResult> {
  let i = 0;
  const headers = { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' };
  // The run's own wall time: autocannon counts a run ended by `amount` in whole seconds.
  const started = performance.now();
  const result = await autocannon({
    url: options.base,
    connections: options.connections,
    ...(options.amount ? { amount: options.amount } : { duration: options.duration }),
    ...(options.rate ? { overallRate: options.rate } : {}),
    timeout: 30,
    requests: [
      {
        ...(options.onResponse
          ? { onResponse: (status: number, body: string) => options.onResponse!(status, body) }
          : {}),
        setupRequest: (req) => {
          const next = options.request(i++);
          // Fresh headers each time: autocannon writes Content-Length into the headers object it
          // is given, and a GET after a POST would otherwise announce a body it never sends.
          const own = next.token ? { authorization: `Bearer ${next.token}` } : {};
          return {
            ...req,
            method: next.method,
            path: next.path,
            body: next.body,
            headers: { ...headers, ...own },
          };
        },
      },
    ],
  });
  const seconds = (performance.now() - started) / 1000;
  return {
    requests: result.requests.total,
    seconds,
    rps: result.requests.total / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: result.latency.average,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}
