import http from 'node:http';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { Socket } from 'node:net';
import express, { type Request, type Response } from 'express';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import type { GraphQLSchema, ValidationRule } from 'graphql';
import type { MikroORM } from '@mikro-orm/core';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import { callerStillCurrent, endTenantTransaction } from './db/tenant-transaction';
import { authenticate } from './auth/authenticate';
import type { JwtSettings } from './auth/jwt';
import { Loaders, type Context } from './context';
import type { ContextFor } from './http/context-for';
import { API_BASE, GRAPHQL_PATH } from './http/api-base';
import { actorOf, setActor } from './db/tenancy';
import { classify } from './error-mapping';
import { AppError } from './errors';
import { credentialError, fieldError, requireCredential } from './graphql/errors';
import { graphqlHandler } from './graphql/express-handler';
import { ideRouter } from './graphql/ide';
import { compiledExecution } from './graphql/compiled-execution';
import { answerKnownQueries, KnownQueries } from './graphql/known-queries';
import { requestTransaction } from './graphql/request-transaction';
import type { Logger } from './logger';
import { compileRoutes } from './rest/compile';
import { restRowMatcher, routeLookup } from './rest/lookup';
import { bodyErrors, jsonBody, refuseDeclaredOverLimit, rejectNulBytes, restRouter } from './rest/router';
import { sendCaught, sendError } from './http/send-error';
import { restTableOf, transferTableOf } from './rest/table';
import type { DomainModule } from './modules';
import { appModules } from './app-modules';
import { notifications } from './domain/notifications/api/notifications';
import { buildAppSchema } from './app-schema';
import { buildOpenApi } from './docs/openapi';
import { mountDocs } from './docs/router';
import { createMetrics, type Metrics } from './observability/metrics';
import { observeRequests } from './http/request-log';
import { graphqlIdempotency } from './graphql/idempotency';
import { LiveHub } from './events/live';
import { CallerCache } from './auth/caller-cache';
import { useIssuerSettings } from './auth/issuers';
import { serveSubscriptions } from './graphql/subscriptions';
import { credentialFailures, type CredentialFailures } from './http/credential-failures';
import {
  apiContentSecurityPolicy,
  corsFor,
  credentialLimiter,
  eventsBehind,
  isWriteRequest,
  securityHeaders,
  tenantLimiter,
  type RateLimits,
} from './http/hardening';
import { answerClientErrors, DEFAULT_RECEIVE_TIMEOUT_SECONDS, receiveLimits } from './http/slow-clients';
import { openBackend } from './files/backends';
import { filesRouter } from './domain/files/api/files-router';
import { exportBundleRouter } from './http/export-bundle-router';
import { fileSettings, type FileSettings } from './files/settings';
import { FileStore } from './domain/files/stored-files';
import { unsubscribeRouter } from './http/unsubscribe';
import { PUBLIC_PATH, publicFrontOfficeRouter } from './domain/crm/api/public-front-office';
import { invitationsRouter } from './domain/access/api/invitations-router';
import { acceptBySignIn } from './domain/access/invitations';
import { onInvitedSignIn } from './auth/issuer-users';
import { LagBound, type LagBoundSettings } from './events/lag-bound';

export interface AppOptions {
  orm: MikroORM;
  jwt: JwtSettings;
  logger: Logger;
  production: boolean;
  /** CORS origins, rate limits and introspection; tests leave rate limits off unless they test them. */
  http?: {
    corsOrigins?: string[];
    rateLimits?: RateLimits;
    introspection?: boolean;
    /** Seconds a request's headers and body may take to arrive (REQUEST_RECEIVE_TIMEOUT). */
    receiveTimeoutSeconds?: number;
    /**
     * The bound on a tenant's writes while the service is behind with its events
     * (events/lag-bound.ts); off unless given (tests that do not test it).
     */
    lagBound?: LagBoundSettings;
  };
  /**
   * The domains served (their groups, resolvers and REST rows): the application's unless given
   * (the test of the "add a resource group" recipe adds a module of one group).
   */
  modules?: readonly DomainModule[];
  /**
   * Where stored files live and the tenants' default limits; unless given, a local folder of its
   * own under the system's temporary directory (tests that do not store files).
   */
  files?: FileSettings;
}

export interface App {
  server: http.Server;
  schema: GraphQLSchema;
  /** Live subscriptions' sessions and their outbox listener. */
  live: LiveHub;
  /** The file store requests use. */
  files: FileStore;
  /** Its Prometheus metrics (the event worker counts its deliveries there). */
  metrics: Metrics;
  /** Stops taking requests, lets those in flight finish, then stops GraphQL. */
  close(): Promise<void>;
}

const BODY_LIMIT = '1mb';
const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * How long a stop waits for the answers of requests in flight (docs/operations.md, "Stopping"):
 * below the process's own last resort (serve.ts), so the database still closes in order.
 */
export const DRAIN_LIMIT_MS = 20_000;

const NO_LIMITS: RateLimits = { perCredential: 0, perTenant: 0, windowMs: 60_000 };

/**
 * No answer at /graphql may be cached. The schema declares no cache hints, so Apollo's cache
 * control plugin always came to this header, at the price of a hook on every field it resolved
 * (it runs for each row of a page); the header is set directly instead and the plugin disabled.
 */
const notCached: ApolloServerPlugin<Context> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        response.http.headers.set('cache-control', 'no-store');
      },
    };
  },
};

/** GraphQL limits: deep enough for the configurator's trees, small enough to stop abuse. */
const armorProtection = new ApolloArmor({
  // Introspection is where the classic ofType-chain attack lives, so it is not exempt.
  maxDepth: { n: 12, ignoreIntrospection: false },
  costLimit: { maxCost: 50_000 },
  // Every alias counts, `__typename`'s too: graphql-armor exempts it by default, and a thousand of
  // them are a thousand fields to resolve and answer.
  maxAliases: { n: 20, allowList: [] },
  maxDirectives: { n: 20 },
  // Tokens are limited by graphql's own parser (parseOptions below), which reports a 400.
  maxTokens: { enabled: false },
  // Suggestions are removed whole in formatError (withoutSuggestions).
  blockFieldSuggestion: { enabled: false },
}).protect();

/**
 * Wires the service: health, the REST facade under /api/v1 and GraphQL at /graphql, both
 * executing against one schema with one per-request context.
 */
export async function createApp({
  orm,
  jwt,
  logger,
  production,
  http: httpOptions = {},
  modules = appModules,
  files: fileOptions,
}: AppOptions): Promise<App> {
  const settings = fileOptions ?? fileSettings({}, path.join(os.tmpdir(), `bms-files-${randomUUID()}`));
  const files = new FileStore(openBackend(settings), settings, jwt.secret);
  const rateLimits = httpOptions.rateLimits ?? NO_LIMITS;
  const introspection = httpOptions.introspection ?? !production;
  useIssuerSettings({ production });
  // An invited user's first sign-in through the tenant's provider accepts the invitation.
  onInvitedSignIn(acceptBySignIn);
  const schema = await buildAppSchema(modules);
  const routes = compileRoutes(schema, restTableOf(modules));
  const lookup = routeLookup(routes);
  const metrics = createMetrics(orm, logger);
  const app = express();
  const receiveSeconds = httpOptions.receiveTimeoutSeconds ?? DEFAULT_RECEIVE_TIMEOUT_SECONDS;
  // 1000 ids in a query string (the documented maximum) need about 37 KB of URL. Slow clients
  // cannot hold a connection open: a request not received in time is a 408.
  const server = http.createServer({ maxHeaderSize: 64 * 1024, ...receiveLimits(receiveSeconds) }, app);
  answerClientErrors(server, receiveSeconds, logger, metrics);
  const unused = connectionsWithoutRequest(server);
  const stopping = closeAfterAnswerWhenStopping(server);
  app.disable('x-powered-by');
  app.use(securityHeaders());
  // The public routes answer CORS by their widget's origins (domain/crm/api/public-front-office.ts).
  const serviceCors = corsFor(httpOptions.corsOrigins ?? []);
  const publicPrefix = `${API_BASE}${PUBLIC_PATH}/`;
  app.use((req, res, next) => (req.path.startsWith(publicPrefix) ? next() : serviceCors(req, res, next)));
  // Node's querystring: no parameter is read in qs's bracket syntax (a[b]=, a[]=), repeated keys
  // still arrive as a list, and qs cost several times as much at each read of req.query.
  app.set('query parser', 'simple');

  // Request id, one log line and the HTTP metrics of every request.
  app.use(observeRequests(logger, metrics, restRowMatcher(lookup)));
  mountHealthRoutes(app, orm, metrics);

  // Callers known to this process; the live hub's listener tells it of changes on any process.
  const callers = new CallerCache();
  const lagBound =
    httpOptions.lagBound && httpOptions.lagBound.boundMs > 0
      ? new LagBound(orm, httpOptions.lagBound, logger, metrics.observeLagBound)
      : undefined;
  if (lagBound) metrics.watchLagBound(lagBound);
  const contextFor = contextForCredentials(
    orm,
    jwt,
    logger,
    { limitTenant: tenantLimiter(rateLimits), failures: credentialFailures(rateLimits), lagBound },
    callers,
    files,
  );
  mountDocs(app, () => buildOpenApi(schema, routes, transferTableOf(modules)));
  // Digests' unsubscribe links: no credential, the signed token is the proof (docs/events.md).
  app.use(unsubscribeRouter(orm, jwt.secret, logger));
  // Invitation links: no credential, the one-time token is the proof (docs/security.md).
  app.use(invitationsRouter(orm, jwt, logger));
  // Contact forms and bookings of visitors: no credential, the tenant's key in the URL.
  app.use(API_BASE, publicFrontOfficeRouter(orm, rateLimits, logger));
  const fileRoutes = express
    .Router()
    .use(
      filesRouter({ store: files, orm, contextFor, logger, idleSeconds: receiveSeconds }),
      exportBundleRouter(files, contextFor, logger),
    );
  app.use(API_BASE, restApi(lookup, contextFor, rateLimits, logger, fileRoutes));

  const known = new KnownQueries();
  const apollo = await startApollo(schema, { introspection, production, logger, metrics, known });
  // GraphiQL, served offline, where the landing page would be; Sandbox at ?ide=sandbox.
  if (!production && introspection) app.use(GRAPHQL_PATH, ideRouter(schema));
  app.use(
    GRAPHQL_PATH,
    ...graphqlHandlers({ apollo, known, orm, contextFor, rateLimits, logger, metrics, files }),
  );

  // Subscriptions over WebSocket on the same port and path; the listener hears of every
  // committed event, whichever process committed it.
  const live = new LiveHub(
    orm,
    jwt,
    logger,
    { all: modules.flatMap((m) => m.groups), notifications },
    callers,
  );
  await live.start(orm.config.get('clientUrl') as string);
  const subscriptions = serveSubscriptions({
    server,
    schema,
    hub: live,
    validationRules: armorProtection.validationRules as ValidationRule[],
    logger,
  });

  app.use((req, res) => sendError(res, 404, `no such path: ${req.method} ${req.path}`));
  app.use((err: unknown, _req: Request, res: Response, _next: express.NextFunction) =>
    sendCaught(res, err, logger),
  );

  return {
    server,
    schema,
    live,
    files,
    metrics,
    close: () => {
      stopping.begin();
      return closeApp(server, unused, subscriptions, live, apollo).finally(() => lagBound?.stop());
    },
  };
}

/** Liveness, readiness (the database answers) and the metrics scrape; none needs a credential. */
function mountHealthRoutes(app: express.Express, orm: MikroORM, metrics: Metrics): void {
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    try {
      await orm.em.getConnection().execute('select 1');
      res.json({ status: 'ready' });
    } catch {
      res.setHeader('Retry-After', '5');
      res.status(503).json({ status: 'database unavailable' });
    }
  });
  app.get('/metrics', metrics.handler);
}

/** The context of an authenticated request; a missing or bad credential is a 401. */
function contextForCredentials(
  orm: MikroORM,
  jwt: JwtSettings,
  logger: Logger,
  {
    limitTenant,
    failures,
    lagBound,
  }: { limitTenant: ReturnType<typeof tenantLimiter>; failures: CredentialFailures; lagBound?: LagBound },
  callers: CallerCache,
  files: FileStore,
): ContextFor {
  const contextFor: ContextFor = async (req, res, optimistic = false) => {
    // An address or key that failed too often is refused before its credential is checked.
    await failures.check(req, res);
    let authenticated: Awaited<ReturnType<typeof authenticate>>;
    try {
      authenticated = await authenticate(orm.em, jwt, req.headers.authorization, callers, optimistic);
    } catch (err) {
      if (err instanceof AppError && err.status === 401) await failures.refused(req);
      throw err;
    }
    failures.accepted(req);
    const { em, caller, tokenId } = authenticated;
    res.locals.caller = caller;
    // The history names the request each change came from.
    setActor(em, { ...actorOf(em)!, requestId: (res.locals.requestId as string | undefined) ?? null });
    // Requests refused before execution (batches, limits) never reach the code that ends the
    // transaction; once the answer is out, whatever is still open is rolled back.
    res.once('finish', () => {
      if (em.isInTransaction())
        endTenantTransaction(em, false).catch((err) => logger.error({ err }, 'rollback failed'));
    });
    try {
      // A request run again for a caller that had changed was counted on its first run.
      if (!res.locals.tenantCounted) {
        res.locals.tenantCounted = true;
        await limitTenant(req, res);
      }
    } catch (err) {
      await endTenantTransaction(em, false);
      throw err;
    }
    // A write of a tenant whose events the service holds back waits, outside any transaction (a
    // held write keeps no connection from others), then runs as if it had just arrived; a write
    // still over the bound at the end of the wait is refused. So does the first write of a tenant
    // this process has not read yet, for that reading. Checked once per request: a run
    // again for a stale caller, or Apollo's after the idempotency check, is the same request.
    if (lagBound && res.locals.lagBound === undefined && isWriteRequest(req)) {
      res.locals.lagBound = 'checked';
      if (lagBound.check(caller.tenantId) !== 'under') {
        await endTenantTransaction(em, false);
        if (await lagBound.waitUnder(caller.tenantId)) return contextFor(req, res, optimistic);
        res.locals.lagBound = eventsBehind(res, lagBound.retryAfterSeconds);
      }
    }
    if (res.locals.lagBound instanceof AppError) {
      if (em.isInTransaction()) await endTenantTransaction(em, false);
      throw res.locals.lagBound;
    }
    const context: Context = {
      em,
      caller,
      loaders: new Loaders(),
      requestId: res.locals.requestId as string,
      files,
      tokenId,
    };
    if (optimistic)
      context.renewIfStale = async (target) => {
        if (await callerStillCurrent(em)) return false;
        const fresh = await contextFor(req, res, false);
        // Everything the run left on the context goes too: graphql-shield keeps its rules'
        // answers there, decided for the caller as it was.
        for (const key of Object.keys(target)) delete (target as unknown as Record<string, unknown>)[key];
        Object.assign(target, fresh);
        return true;
      };
    return context;
  };
  return contextFor;
}

/** The REST facade: JSON bodies only, credential rate limits, then the route table. */
function restApi(
  lookup: ReturnType<typeof routeLookup>,
  contextFor: ContextFor,
  rateLimits: RateLimits,
  logger: Logger,
  fileRoutes: express.Router,
): express.Router {
  const api = express.Router();
  api.use(apiContentSecurityPolicy);
  api.use(credentialLimiter(rateLimits));
  // Uploads stream their multipart bodies, so files are served before the JSON body parser.
  api.use(fileRoutes);
  api.use(refuseDeclaredOverLimit(BODY_LIMIT_BYTES));
  // An incoming e-invoice is XML: the operation that imports one reads its body as text.
  api.post(
    '/ap-invoices/import',
    express.text({ limit: BODY_LIMIT, type: ['application/xml', 'text/xml', 'application/*+xml'] }),
  );
  // A message handed over by a mail provider is read as its bytes: its encoding is its own.
  api.post('/communications/inbox/messages', express.raw({ limit: BODY_LIMIT, type: ['message/rfc822'] }));
  api.use(
    jsonBody(
      express.json({ limit: BODY_LIMIT, strict: false, type: ['application/json', 'application/*+json'] }),
    ),
  );
  api.use(bodyErrors(logger));
  api.use(rejectNulBytes);
  api.use(restRouter(lookup, contextFor, logger));
  api.use((req, res) => sendError(res, 404, `no operation ${req.method} ${req.baseUrl}${req.path}`));
  return api;
}

async function startApollo(
  schema: GraphQLSchema,
  {
    introspection,
    production,
    logger,
    metrics,
    known,
  }: { introspection: boolean; production: boolean; logger: Logger; metrics: Metrics; known: KnownQueries },
): Promise<ApolloServer<Context>> {
  const apollo = new ApolloServer<Context>({
    // The schema, executed as compiled queries (graphql/compiled-execution.ts).
    gateway: compiledExecution(schema, metrics.countCompile, known),
    introspection,
    validationRules: armorProtection.validationRules,
    parseOptions: { maxTokens: 10_000 },
    allowBatchedHttpRequests: false,
    includeStacktraceInErrorResponses: false,
    // serve.ts owns SIGTERM and SIGINT and stops everything in order through close(); Apollo's own
    // handler would stop the server first and leave close()'s stop() waiting forever.
    stopOnTerminationSignals: false,
    // A plugin with request hooks acts on known queries only if graphql/known-queries.ts does
    // what it does: that path answers them without Apollo's request pipeline.
    plugins: [
      ...armorProtection.plugins,
      requireCredential,
      requestTransaction(logger),
      metrics.graphqlPlugin,
      notCached,
      ApolloServerPluginCacheControlDisabled(),
      production || !introspection
        ? ApolloServerPluginLandingPageDisabled()
        : ApolloServerPluginLandingPageLocalDefault({ embed: true }),
    ],
    formatError: (formatted, error) => fieldError(formatted, error, logger),
  });
  await apollo.start();
  return apollo;
}

/**
 * What answers /graphql: rate limits, the JSON body, idempotent mutations, known queries, then
 * Apollo.
 */
function graphqlHandlers({
  apollo,
  known,
  orm,
  contextFor,
  rateLimits,
  logger,
  metrics,
  files,
}: {
  apollo: ApolloServer<Context>;
  known: KnownQueries;
  orm: MikroORM;
  contextFor: ContextFor;
  rateLimits: RateLimits;
  logger: Logger;
  metrics: Metrics;
  files: FileStore;
}): (express.RequestHandler | express.ErrorRequestHandler)[] {
  const graphqlContext = graphqlContextFor(orm, contextFor, logger, files);
  return [
    credentialLimiter(rateLimits),
    refuseDeclaredOverLimit(BODY_LIMIT_BYTES),
    express.json({ limit: BODY_LIMIT }),
    bodyErrors(logger),
    graphqlIdempotency(contextFor, logger),
    answerKnownQueries({ known, contextFor: graphqlContext, metrics, logger }),
    graphqlHandler(apollo, graphqlContext),
  ];
}

/**
 * A GraphQL request's context, made once per request: the known-query path and Apollo may both
 * ask for it, and a failure (a bad credential, a rate limit) is the same failure to both.
 */
function graphqlContextFor(
  orm: MikroORM,
  contextFor: ContextFor,
  logger: Logger,
  files: FileStore,
): (req: Request, res: Response) => Promise<Context> {
  const make = async (req: Request, res: Response): Promise<Context> => {
    // A mutation with an Idempotency-Key was authenticated, and its key taken, before.
    if (res.locals.context) return res.locals.context as Context;
    // No credential: introspection works (for the IDEs); anything else is refused with a 401
    // by requireCredential, as a bad credential is here.
    if (!req.headers.authorization) {
      return {
        em: orm.em.fork({ clear: true }),
        caller: null,
        loaders: new Loaders(),
        requestId: res.locals.requestId as string,
        files,
      };
    }
    try {
      return await contextFor(req, res, true);
    } catch (err) {
      const { status, detail, expected } = classify(err);
      if (!expected) logger.error({ err }, 'authentication failed');
      throw credentialError(status, expected ? detail : 'Internal server error');
    }
  };
  return (req, res) => (res.locals.graphqlContext ??= make(req, res)) as Promise<Context>;
}

/**
 * The server's connections that have not handed it a whole request yet. Node's server.close()
 * ends idle kept-alive connections but counts one that has sent no request as busy (its headers
 * timeout would end it, and close() stops checking that timeout), so a connection opened and left
 * unused, as a browser opens spare ones ahead of need, would hold close() until its client hangs up.
 * A WebSocket's connection stays here too: its upgrade is not a request.
 */
function connectionsWithoutRequest(server: http.Server): Set<Socket> {
  const unused = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
  });
  server.on('request', (req: http.IncomingMessage) => unused.delete(req.socket));
  return unused;
}

/**
 * Once a stop begins, no connection is kept alive: each answer not yet under way goes out with
 * `Connection: close`, and Node ends its connection once it is out. A client on a kept-alive
 * connection so learns with its answer that the next request needs a new connection (which is
 * refused), instead of sending it on a connection the server is about to close. Requests that
 * arrive on such a connection before its answer is out are answered in full, the same way.
 */
function closeAfterAnswerWhenStopping(server: http.Server): { begin(): void } {
  const answering = new Set<http.ServerResponse>();
  let stopping = false;
  const closeAfter = (res: http.ServerResponse) => {
    if (res.headersSent) return;
    res.shouldKeepAlive = false;
    res.setHeader('Connection', 'close');
  };
  // Before any other listener, so the header is set before anything can answer.
  server.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    if (stopping) return closeAfter(res);
    answering.add(res);
    res.once('close', () => answering.delete(res));
  });
  return {
    begin() {
      stopping = true;
      for (const res of answering) closeAfter(res);
      answering.clear();
    },
  };
}

async function closeApp(
  server: http.Server,
  unused: Set<Socket>,
  subscriptions: ReturnType<typeof serveSubscriptions>,
  live: LiveHub,
  apollo: ApolloServer<Context>,
): Promise<void> {
  // close() refuses new connections and ends the idle ones once; a kept-alive connection
  // whose request is still running would otherwise stay open for keepAliveTimeout after its
  // answer, so idle connections are ended again until the server has closed.
  const sweep = setInterval(() => server.closeIdleConnections(), 100);
  // A request still running after the drain's limit does not hold the stop any longer.
  const limit = setTimeout(() => server.closeAllConnections(), DRAIN_LIMIT_MS);
  limit.unref();
  try {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // WebSockets hold their connections until closed: they end now (1001), as does listening.
    await subscriptions.close();
    // Then the connections that never sent a request (WebSockets' among them, closed by now):
    // there is nothing on them to finish, and no timeout would end them any more.
    for (const socket of unused) socket.destroy();
    await live.close();
    await closed;
  } finally {
    clearInterval(sweep);
    clearTimeout(limit);
  }
  await apollo.stop();
}
