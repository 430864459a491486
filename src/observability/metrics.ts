import type { ApolloServerPlugin } from '@apollo/server';
import type { MikroORM } from '@mikro-orm/core';
import type { RequestHandler } from 'express';
import { Kind, type OperationDefinitionNode } from 'graphql';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Logger } from '../logger';
import { unmappedRefusals } from '../db/refusals';
import { deliveryLag } from '../events/delivery-repository';
import type { AttemptObserver } from '../events/worker';
import type { JobRunObserver } from '../jobs/scheduler';
import type { LagBound, LagBoundObserver } from '../events/lag-bound';
import { joinClusterMetrics } from './cluster-metrics';
import { pendingCoverageJobs } from './coverage-job-repository';

/** What became of a known GraphQL document when it came again (graphql/compiled-execution.ts). */
export type CompileOutcome = 'compiled' | 'fallback';

/**
 * Prometheus metrics of one app. Each app has a registry of its own rather than prom-client's
 * global one, so tests (and anything else) may start several apps in one process. In a cluster
 * worker the scrape answers the sum over all workers (cluster-metrics.ts).
 */
export interface Metrics {
  registry: Registry;
  /** Records one finished HTTP request under its route pattern (never its raw path). */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** Apollo plugin timing each GraphQL operation by name. */
  graphqlPlugin: ApolloServerPlugin<any>;
  /**
   * Records one GraphQL operation answered outside Apollo's request pipeline (a known query,
   * graphql/known-queries.ts), as graphqlPlugin records those Apollo answers.
   */
  observeKnownQuery(operationName: string | undefined, failed: boolean, seconds: number): void;
  /** Counts a GraphQL document (with its operation name) made ready to execute, compiled or not. */
  countCompile(outcome: CompileOutcome): void;
  /** Counts a request not received in full in time (its headers, or its body), answered 408. */
  countReceiveTimeout(phase: 'headers' | 'body'): void;
  /** Counts one attempt of the event worker (webhook or e-mail), per endpoint. */
  observeAttempt: AttemptObserver;
  /** Counts one finished run of a scheduled job, its items and its duration. */
  observeJobRun: JobRunObserver;
  /** Counts writes the bound on event lag held, and those it then refused. */
  observeLagBound: LagBoundObserver;
  /** The bound whose signal the gauges show (the app's, when it has one). */
  watchLagBound(bound: LagBound): void;
  /** GET /metrics in the Prometheus text format: this process's, or the whole cluster's. */
  handler: RequestHandler;
}

/** The pool of knex (tarn) under MikroORM's PostgreSQL connection. */
interface TarnPool {
  max: number;
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
}

function poolOf(orm: MikroORM): TarnPool | undefined {
  const connection = orm.em.getConnection() as unknown as {
    getKnex?: () => { client?: { pool?: TarnPool } };
  };
  return connection.getKnex?.().client?.pool;
}

/** A scrape must answer even when the database does not: queries get this long. */
const SCRAPE_QUERY_TIMEOUT_MS = 2_000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Label values chosen by clients (GraphQL operation names) are capped, so a client cannot grow
 * the registry without bound: past `limit` distinct values, new ones count as `other`.
 */
class LabelBudget {
  private readonly seen = new Set<string>();
  constructor(private readonly limit: number) {}

  label(value: string | null | undefined): string {
    if (!value || !/^[_A-Za-z][_0-9A-Za-z]{0,63}$/.test(value)) return 'anonymous';
    if (this.seen.has(value)) return value;
    if (this.seen.size >= this.limit) return 'other';
    this.seen.add(value);
    return value;
  }
}

/** Seconds: the request and the GraphQL operation histograms bucket alike, so they compare. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(orm: MikroORM, logger: Logger): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registry.registerMetric(unmappedRefusals);

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route pattern (REST row path, /graphql, or unmatched) and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request durations by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const graphqlDurations = new Histogram({
    name: 'graphql_operation_duration_seconds',
    help: 'GraphQL operations at /graphql by operation name, type and outcome (ok or error).',
    labelNames: ['operation', 'type', 'outcome'],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const knownQueries = new Counter({
    name: 'graphql_known_query_answers_total',
    help: 'GraphQL queries at /graphql answered as known queries: a document Apollo Server had already validated, run compiled without its request pipeline (graphql/known-queries.ts).',
    registers: [registry],
  });
  const compiles = new Counter({
    name: 'graphql_documents_compiled_total',
    help: 'GraphQL documents at /graphql prepared for execution, once per operation: compiled by graphql-jit, or left to graphql-js (fallback).',
    labelNames: ['outcome'],
    registers: [registry],
  });

  const receiveTimeouts = new Counter({
    name: 'http_request_receive_timeouts_total',
    help: 'Requests whose headers or body did not arrive in full within REQUEST_RECEIVE_TIMEOUT, answered 408, by phase (headers or body).',
    labelNames: ['phase'],
    registers: [registry],
  });

  new Gauge({
    name: 'db_pool_connections',
    help: 'Database pool connections by state: used, free, pending (acquires waiting), max.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const pool = poolOf(orm);
      this.set({ state: 'used' }, pool?.numUsed() ?? 0);
      this.set({ state: 'free' }, pool?.numFree() ?? 0);
      this.set({ state: 'pending' }, (pool?.numPendingAcquires() ?? 0) + (pool?.numPendingCreates() ?? 0));
      this.set({ state: 'max' }, pool?.max ?? 0);
    },
  });

  new Gauge({
    name: 'job_queue_depth',
    help: 'Jobs waiting to run, by queue (coverage_job: PENDING type product coverage calculations).',
    labelNames: ['queue'],
    registers: [registry],
    // Every worker of a cluster reads the same queue: summing would count it once per worker.
    aggregator: 'max',
    async collect() {
      try {
        this.set(
          { queue: 'coverage_job' },
          await withTimeout(pendingCoverageJobs(orm), SCRAPE_QUERY_TIMEOUT_MS),
        );
      } catch (err) {
        // A stale value is better than failing the whole scrape; the log says why.
        logger.warn({ err }, 'job queue depth could not be read');
      }
    },
  });

  // Endpoints are the tenants' to create: past this many, new ones are counted as `other`.
  const endpoints = new Set<string>();
  const endpointLabel = (id: string | null) => {
    if (!id) return 'email';
    if (!endpoints.has(id) && endpoints.size >= 1000) return 'other';
    endpoints.add(id);
    return id;
  };
  const deliveries = new Counter({
    name: 'event_deliveries_total',
    help: 'Delivery attempts by channel (webhook, email, push or digest), endpoint (the webhook endpoint id; for push the push service: webpush, fcm or apns; email, digest) and outcome (ok or failed). rate() gives deliveries per second.',
    labelNames: ['channel', 'endpoint', 'outcome'],
    registers: [registry],
  });
  const attemptDurations = new Histogram({
    name: 'event_delivery_duration_seconds',
    help: 'How long one delivery attempt took (the webhook request, or handing the e-mail to SMTP), by channel.',
    labelNames: ['channel'],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  new Gauge({
    name: 'event_delivery_lag_seconds',
    help: 'Age of the oldest event still waiting: stage dispatch (in the outbox, not yet fanned out), email, push, digest (from the end of its period), or webhook per active endpoint (label endpoint).',
    labelNames: ['stage', 'endpoint'],
    registers: [registry],
    // Every process reads the same tables: summing would count the lag once per process.
    aggregator: 'max',
    async collect() {
      try {
        const lag = await withTimeout(deliveryLag(orm), SCRAPE_QUERY_TIMEOUT_MS);
        // Endpoints that caught up leave the gauge rather than linger at their last age.
        this.reset();
        this.set({ stage: 'dispatch', endpoint: '' }, lag.undispatched ?? 0);
        this.set({ stage: 'email', endpoint: 'email' }, lag.email ?? 0);
        this.set({ stage: 'push', endpoint: 'push' }, lag.push ?? 0);
        this.set({ stage: 'digest', endpoint: 'digest' }, lag.digest ?? 0);
        for (const w of lag.webhooks)
          this.set({ stage: 'webhook', endpoint: endpointLabel(w.endpointId) }, w.seconds);
      } catch (err) {
        logger.warn({ err }, 'event delivery lag could not be read');
      }
    },
  });

  const jobRuns = new Counter({
    name: 'job_runs_total',
    help: 'Runs of scheduled jobs (bms jobs lists them) by job and outcome (ok or failed), in this process; a per-tenant job counts a run per tenant.',
    labelNames: ['job', 'outcome'],
    registers: [registry],
  });
  const jobItems = new Counter({
    name: 'job_items_total',
    help: 'Items the scheduled jobs handled (what each counts: keys deleted, digests scheduled...), by job.',
    labelNames: ['job'],
    registers: [registry],
  });
  const jobDurations = new Histogram({
    name: 'job_run_duration_seconds',
    help: 'How long one run of a scheduled job took, by job.',
    labelNames: ['job'],
    buckets: [0.01, 0.05, 0.25, 1, 5, 15, 60, 300, 1800],
    registers: [registry],
  });

  const lagBoundWrites = new Counter({
    name: 'event_lag_bound_writes_total',
    help: "Writes (REST POST, PUT, PATCH, DELETE; GraphQL mutations) that waited because their tenant's events were behind by the service's doing, by outcome: held (every one that waited) and refused (those of them answered 429 after the longest wait).",
    labelNames: ['outcome'],
    registers: [registry],
  });
  let lagBound: LagBound | undefined;
  new Gauge({
    name: 'event_service_lag_seconds',
    help: "The largest lag the service itself causes a tenant's webhooks (slow, failing and backing-off receivers left out), over the tenants writing lately, as the bound on writes last read it.",
    registers: [registry],
    // Every process reads the same tables.
    aggregator: 'max',
    collect() {
      this.set(lagBound?.largestSeconds ?? 0);
    },
  });
  new Gauge({
    name: 'event_lag_bound_tenants',
    help: 'Tenants whose writes wait now because the service is behind with their events.',
    registers: [registry],
    aggregator: 'max',
    collect() {
      this.set(lagBound?.tenantsOver ?? 0);
    },
  });

  const operations = new LabelBudget(200);
  const observeOperation = (
    name: string | null | undefined,
    type: string,
    failed: boolean,
    seconds: number,
  ) =>
    graphqlDurations.observe(
      { operation: operations.label(name), type, outcome: failed ? 'error' : 'ok' },
      seconds,
    );
  const graphqlPlugin: ApolloServerPlugin<any> = {
    async requestDidStart() {
      const start = process.hrtime.bigint();
      return {
        async willSendResponse(requestContext) {
          const body = requestContext.response.body;
          const failed =
            (requestContext.errors?.length ?? 0) > 0 ||
            (body.kind === 'single' && (body.singleResult.errors?.length ?? 0) > 0);
          // An operation that failed validation was never resolved; its document still names it.
          const parsed = requestContext.document?.definitions.find(
            (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
          );
          observeOperation(
            requestContext.operationName ?? requestContext.request.operationName ?? parsed?.name?.value,
            requestContext.operation?.operation ?? parsed?.operation ?? 'unknown',
            failed,
            Number(process.hrtime.bigint() - start) / 1e9,
          );
        },
      };
    },
  };

  const clusterMetrics = joinClusterMetrics(registry);
  return {
    registry,
    observeRequest(method, route, status, seconds) {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      durations.observe(labels, seconds);
    },
    graphqlPlugin,
    observeKnownQuery(operationName, failed, seconds) {
      knownQueries.inc();
      observeOperation(operationName, 'query', failed, seconds);
    },
    countCompile: (outcome) => compiles.inc({ outcome }),
    countReceiveTimeout: (phase) => receiveTimeouts.inc({ phase }),
    observeAttempt({ channel, endpointId, ok, seconds }) {
      const label = channel.toLowerCase();
      // Webhooks by endpoint; push by push service (webpush, fcm, apns); e-mail and digests as such.
      const endpoint = channel === 'WEBHOOK' ? endpointLabel(endpointId) : (endpointId ?? label);
      deliveries.inc({ channel: label, endpoint, outcome: ok ? 'ok' : 'failed' });
      attemptDurations.observe({ channel: label }, seconds);
    },
    observeJobRun({ job, outcome, items, seconds }) {
      jobRuns.inc({ job, outcome });
      if (items > 0) jobItems.inc({ job }, items);
      jobDurations.observe({ job }, seconds);
    },
    observeLagBound: (outcome) => lagBoundWrites.inc({ outcome }),
    watchLagBound(bound) {
      lagBound = bound;
    },
    async handler(_req, res, next) {
      res.locals.routePattern = '/metrics';
      try {
        const text = clusterMetrics ? await clusterMetrics.text() : await registry.metrics();
        res.setHeader('Content-Type', clusterMetrics?.contentType ?? registry.contentType);
        res.setHeader('Cache-Control', 'no-store');
        res.send(text);
      } catch (err) {
        next(err);
      }
    },
  };
}
