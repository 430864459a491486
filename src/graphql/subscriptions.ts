import type http from 'node:http';
import type { Duplex } from 'node:stream';
import {
  GraphQLError,
  getOperationAST,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import { CloseCode } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { codeFor } from '../errors';
import { GRAPHQL_PATH } from '../http/api-base';
import { classify } from '../error-mapping';
import { CLOSE_UNAUTHORIZED, type LiveHub, type LiveSession } from '../events/live';
import type { Context } from '../context';
import type { Logger } from '../logger';
import { withoutSuggestions } from './errors';
import { FanoutSocket, messageReplacer } from './fanout-socket';
import { subscribeSharing } from './shared-results';

export interface SubscriptionServer {
  /** Closes every socket (1001) and refuses new ones. */
  close(): Promise<void>;
}

const MAX_MESSAGE_BYTES = 64 * 1024;

/** A GraphQL error as /graphql answers it over HTTP: the detail as message, code and status. */
function formatError(error: GraphQLError, logger: Logger): GraphQLError {
  const { status, detail, expected } = classify(error);
  if (!expected) logger.error({ err: error }, 'unexpected GraphQL error');
  return new GraphQLError(expected ? withoutSuggestions(detail) : 'Internal server error', {
    path: error.path,
    nodes: error.nodes,
    extensions: { code: status === 500 ? 'INTERNAL_SERVER_ERROR' : codeFor(status), status },
  });
}

/**
 * GraphQL subscriptions over WebSocket at /graphql, on the HTTP server's own port, with the
 * graphql-transport-ws protocol (graphql-ws). The credential goes in `connection_init`'s payload
 * (`{"Authorization": "Bearer <jwt>"}`); a missing, bad or expired one closes the socket with 4401,
 * and so does the token's expiry or the user's deactivation later. Only subscriptions are served
 * here: queries and mutations take HTTP, where each runs in its request's transaction. Documents
 * meet the same limits as over HTTP (graphql-armor's rules, the token limit).
 */
export function serveSubscriptions(options: {
  server: http.Server;
  schema: GraphQLSchema;
  hub: LiveHub;
  validationRules: readonly ValidationRule[];
  logger: Logger;
}): SubscriptionServer {
  const { server, schema, hub, logger } = options;
  const rules = [...specifiedRules, ...options.validationRules];
  // Upgrades are taken from the HTTP server here rather than by ws itself, which would also
  // re-emit the server's own errors (a port in use at start-up) as its own.
  // Its sockets send a shared result without serialising it again and coalesce their writes
  // (fanout-socket.ts).
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, WebSocket: FanoutSocket });
  let closing = false;
  const upgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '').split('?')[0];
    if (closing || path !== GRAPHQL_PATH) {
      socket.end(
        `HTTP/1.1 ${closing ? '503 Service Unavailable' : '404 Not Found'}\r\nConnection: close\r\n\r\n`,
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      (ws as FanoutSocket).connection = socket;
      wss.emit('connection', ws, req);
    });
  };
  server.on('upgrade', upgrade);
  const disposable = useServer<Record<string, unknown> | undefined, { session: LiveSession }>(
    {
      schema,
      // An event offered to many sockets is executed once per document (shared-results.ts).
      // A payload read for one session alone runs in a tenant transaction of its caller (events/live.ts).
      subscribe: (args) =>
        subscribeSharing(args, (payload, execute) =>
          (args.contextValue as Context).live?.executeOwn(payload, execute),
        ),
      jsonMessageReplacer: messageReplacer,
      connectionInitWaitTimeout: 10_000,
      onConnect: async (ctx) => {
        const params = ctx.connectionParams ?? {};
        const header = params.Authorization ?? params.authorization;
        try {
          ctx.extra.session = await hub.open(header, (code, reason) => ctx.extra.socket.close(code, reason));
          return true;
        } catch (err) {
          const { status, detail, expected } = classify(err);
          if (status === 401) ctx.extra.socket.close(CLOSE_UNAUTHORIZED, detail);
          else {
            if (!expected) logger.error({ err }, 'subscription authentication failed');
            ctx.extra.socket.close(CloseCode.InternalServerError, 'Internal server error');
          }
          return false;
        }
      },
      onSubscribe: (ctx, _id, payload) => {
        const session = ctx.extra.session;
        if (!session) return [new GraphQLError('Unauthorized', { extensions: { code: 'UNAUTHENTICATED' } })];
        let document: DocumentNode;
        try {
          document = parse(payload.query, { maxTokens: 10_000 });
        } catch (err) {
          return [formatError(err as GraphQLError, logger)];
        }
        const errors = validate(schema, document, rules);
        if (errors.length > 0) return errors.map((e) => formatError(e, logger));
        const operation = getOperationAST(document, payload.operationName);
        if (operation?.operation !== 'subscription')
          return [
            new GraphQLError(
              'Only subscriptions are served over WebSocket; send queries and mutations to /graphql over HTTP',
              { extensions: { code: 'BAD_REQUEST', status: 400 } },
            ),
          ];
        return {
          schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue: session.context(),
        };
      },
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: result.errors.map((e) => formatError(e, logger)) } : result,
      onError: (_ctx, _id, _payload, errors) => errors.map((e) => formatError(e, logger)),
      onClose: (ctx) => ctx.extra.session?.end(),
    },
    wss,
  );
  return {
    async close() {
      closing = true;
      server.off('upgrade', upgrade);
      // Clients are sent 1001 and given a moment to answer; ws would wait 30 s for a silent one.
      const silent = setTimeout(() => {
        for (const client of wss.clients) client.terminate();
      }, 1000);
      try {
        await disposable.dispose();
      } finally {
        clearTimeout(silent);
      }
    },
  };
}
