import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

/**
 * Metrics of a cluster (src/cluster.ts) as one service: each worker counts its own requests, and
 * a scrape, which lands on whichever worker the primary hands the connection to, answers the
 * whole cluster's figures. prom-client's AggregatorRegistry in the primary asks every worker for
 * its registry over the cluster's IPC channel and merges them (counters and histograms summed,
 * gauges by their `aggregator`); the worker that took the scrape asks the primary for that result.
 */

const REQUEST = 'bms:cluster-metrics-req';
const RESPONSE = 'bms:cluster-metrics-res';
/** prom-client gives up on a worker after 5 s; the asking worker waits a little longer. */
const ANSWER_WITHIN_MS = 6_000;

interface MetricsRequest {
  type: typeof REQUEST;
  requestId: number;
}

interface MetricsResponse {
  type: typeof RESPONSE;
  requestId: number;
  text?: string;
  error?: string;
}

/** In the primary: answers every worker's request for the cluster's metrics. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: Partial<MetricsRequest>) => {
    if (message?.type !== REQUEST || typeof message.requestId !== 'number') return;
    const requestId = message.requestId;
    const reply = (answer: Omit<MetricsResponse, 'type' | 'requestId'>) => {
      if (worker.isConnected())
        worker.send({ type: RESPONSE, requestId, ...answer } satisfies MetricsResponse);
    };
    aggregator.clusterMetrics().then(
      (text) => reply({ text }),
      (err: Error) => reply({ error: err.message }),
    );
  });
}

export interface ClusterMetrics {
  contentType: string;
  /** The whole cluster's metrics in the Prometheus text format. */
  text(): Promise<string>;
}

let shared: ClusterMetrics | undefined;

/**
 * In a worker: offers `registry` to the primary's aggregation and returns the way to read the
 * cluster's metrics; undefined in a process that is not a cluster worker. A worker serves one
 * app, so one registry is shared.
 */
export function joinClusterMetrics(registry: Registry): ClusterMetrics | undefined {
  if (!cluster.isWorker) return undefined;
  AggregatorRegistry.setRegistries([registry]);
  if (shared) return shared;
  // Constructing one installs prom-client's answer to the primary's requests in this worker.
  const local = new AggregatorRegistry();
  const pending = new Map<number, (answer: MetricsResponse) => void>();
  let next = 0;
  process.on('message', (message: Partial<MetricsResponse>) => {
    if (message?.type === RESPONSE && typeof message.requestId === 'number')
      pending.get(message.requestId)?.(message as MetricsResponse);
  });
  shared = {
    contentType: local.contentType,
    text: () =>
      new Promise<string>((resolve, reject) => {
        const requestId = next++;
        const timer = setTimeout(() => {
          pending.delete(requestId);
          reject(new Error(`the cluster's primary did not answer within ${ANSWER_WITHIN_MS} ms`));
        }, ANSWER_WITHIN_MS);
        pending.set(requestId, (answer) => {
          clearTimeout(timer);
          pending.delete(requestId);
          if (answer.error !== undefined) reject(new Error(answer.error));
          else resolve(answer.text ?? '');
        });
        process.send!({ type: REQUEST, requestId } satisfies MetricsRequest);
      }),
  };
  return shared;
}
