import type { Request, RequestHandler, Response } from 'express';
import { LRUCache } from 'lru-cache';
import { OperationTypeNode } from 'graphql';
import type { Context } from '../context';
import { sendReply } from '../http/idempotency';
import type { Logger } from '../logger';
import type { Metrics } from '../observability/metrics';
import { runOperation, type KnownQuery, type QueryMemory } from './compiled-execution';
import { answerBody, endOperation, type GraphQLAnswer } from './request-transaction';

/**
 * At most this many documents are remembered, each with its compiled operations; the least
 * recently used goes first.
 */
const KNOWN_DOCUMENTS = 1_000;

/**
 * Query operations Apollo Server has parsed, validated (graphql-armor's limits included) and
 * executed, and that have been compiled (graphql/compiled-execution.ts remembers them here), by
 * the document's text and the operation's name. Whether a text parses and validates depends on
 * nothing but the text and the schema, so a request with the same text needs neither again.
 */
export class KnownQueries implements QueryMemory {
  private readonly documents = new LRUCache<string, Map<string, KnownQuery>>({ max: KNOWN_DOCUMENTS });

  remember(source: string, operationName: string | undefined, query: KnownQuery): void {
    let operations = this.documents.get(source);
    if (!operations) this.documents.set(source, (operations = new Map()));
    operations.set(operationName ?? '', query);
  }

  find(source: string, operationName: string | undefined): KnownQuery | undefined {
    return this.documents.get(source)?.get(operationName ?? '');
  }
}

/** The ETag Express's res.send would give `body`: none when the app asks for none. */
function etagOf(req: Request, body: Buffer): string | undefined {
  const etag = req.app.get('etag fn') as ((body: Buffer) => string) | undefined;
  return etag?.(body);
}

/** A request the known-query path may answer: its parts as Apollo Server would read them. */
interface PlainQuery {
  query: KnownQuery;
  variables: Record<string, unknown> | undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);

/**
 * The known query a request asks for, when its answer can only be the plain JSON one: a POST with
 * a credential and a JSON body of `query` and, optionally, `variables` and `operationName` (no
 * `extensions`: persisted queries stay with Apollo), accepting JSON. Anything else is Apollo's.
 */
function plainQuery(req: Request, known: KnownQueries): PlainQuery | undefined {
  if (req.method !== 'POST' || !req.headers.authorization) return undefined;
  const accept = req.headers.accept;
  if (accept !== undefined && accept !== 'application/json' && accept !== '*/*') return undefined;
  const body: unknown = req.body;
  if (!isRecord(body) || typeof body.query !== 'string') return undefined;
  const { variables, operationName, extensions } = body;
  if (extensions !== undefined && extensions !== null) return undefined;
  if (variables !== undefined && variables !== null && !isRecord(variables)) return undefined;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string')
    return undefined;
  const query = known.find(body.query, operationName ?? undefined);
  return query && { query, variables: variables ?? undefined };
}

/**
 * Answers known queries without Apollo Server's request pipeline. Apollo parsed and validated
 * the document the first time it came, and its plugins do nothing else for a query that succeeds
 * with a credential: requireCredential lets a caller through, the request transaction ends with
 * the answer (endOperation), the metrics plugin times it (observeKnownQuery), and notCached's
 * header is set here. So the path runs the compiled operation with the request's context, as
 * Apollo's executor does (runOperation), and writes what Apollo would have written: the same
 * status, headers and text, which test/foundation/known-queries.test.ts holds it to.
 *
 * Whatever else happens goes on to Apollo, which answers in its own words: a context that could
 * not be made (the same failure, kept with the request by `contextFor`), and a run that reported
 * or threw an error. A query only reads, so Apollo running it again changes nothing.
 */
export function answerKnownQueries({
  known,
  contextFor,
  metrics,
  logger,
}: {
  known: KnownQueries;
  /** The request's GraphQL context, made once per request whoever asks first. */
  contextFor: (req: Request, res: Response) => Promise<Context>;
  metrics: Metrics;
  logger: Logger;
}): RequestHandler {
  return async (req, res, next) => {
    const plain = plainQuery(req, known);
    if (!plain) return next();
    let context: Context;
    try {
      context = await contextFor(req, res);
    } catch {
      return next();
    }
    const start = process.hrtime.bigint();
    let answer: GraphQLAnswer;
    try {
      const result = await runOperation(plain.query.run, OperationTypeNode.QUERY, context, plain.variables);
      if (result.errors?.length) return next();
      answer = { data: result.data, extensions: result.extensions };
    } catch {
      return next();
    }
    await endOperation(context, answer, { mutation: false, status: 200 }, logger);
    metrics.observeKnownQuery(
      plain.query.name,
      Boolean(answer.errors?.length),
      Number(process.hrtime.bigint() - start) / 1e9,
    );
    const body = answerBody(answer);
    const headers: Record<string, string> = {
      'cache-control': 'no-store',
      'content-type': 'application/json; charset=utf-8',
    };
    const etag = etagOf(req, body);
    if (etag) headers.etag = etag;
    // Written as REST answers are (sendReply), with the ETag Express's res.send gives Apollo's:
    // the rest of res.send (the content type parsed and set again, the body copied to a buffer)
    // cost more than the ETag's hash (bench/README.md).
    sendReply(res, { status: 200, headers, body });
  };
}
