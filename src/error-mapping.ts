import { ConnectionException, DriverException, OptimisticLockError } from '@mikro-orm/core';
import { GraphQLError } from 'graphql';
import { ArgumentValidationError } from 'type-graphql';
import type { ValidationError } from 'class-validator';
import { AppError, REQUEST, type ClientError, type Problem } from './errors';
import { countUnmappedRefusal, refusalOf, sqlStateOf } from './db/refusals';

/**
 * One place that decides what an error means to a client: its HTTP status and a detail safe to
 * show. Used by the REST facade and by Apollo's formatError, so both say the same.
 */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
]);

function validationProblems(errors: ValidationError[], prefix = ''): Problem[] {
  return errors.flatMap((e) => {
    const path = prefix ? `${prefix}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((reason) => ({ field: path, reason }));
    return [...own, ...validationProblems(e.children ?? [], path)];
  });
}

function isConnectionFailure(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: string; message?: string; cause?: unknown };
  if (e.code && CONNECTION_CODES.has(e.code)) return true;
  const msg = e.message ?? '';
  if (
    /Timeout acquiring a connection|Connection terminated|connect ECONNREFUSED|Client has encountered a connection error|the database system is (starting up|shutting down)|terminating connection/i.test(
      msg,
    )
  ) {
    return true;
  }
  return e.cause ? isConnectionFailure(e.cause) : false;
}

/** GraphQL's variable errors name the variable; clients know the field: `input.percentage: ...`. */
export function requestErrorProblem(message: string): Problem | undefined {
  const m = /^Variable "\$(\w+)" got invalid value (.*?)(?: at "([^"]+)")?; (.*)$/s.exec(message);
  if (m) return { field: (m[3] ?? m[1]).replace(/^input\./, ''), reason: m[4] };
  const missing = /^Variable "\$(\w+)" of required type "[^"]+" was not provided\.$/.exec(message);
  if (missing) return { field: missing[1], reason: 'is required' };
  return undefined;
}

function requestErrorDetail(message: string): string {
  const p = requestErrorProblem(message);
  return p ? `${p.field}: ${p.reason}` : message;
}

export function classify(error: unknown): ClientError {
  let original: unknown = error;
  while (original instanceof GraphQLError && original.originalError) original = original.originalError;
  if (original instanceof AppError) {
    const errors = original.extensions.errors as Problem[] | undefined;
    return {
      status: original.status,
      detail: original.message,
      expected: true,
      ...(errors ? { errors } : {}),
    };
  }
  if (original instanceof ArgumentValidationError) {
    const errors = validationProblems(original.extensions.validationErrors);
    const detail = errors.map((p) => `${p.field}: ${p.reason}`).join('; ');
    return {
      status: 400,
      detail: detail || 'the input is not valid',
      expected: true,
      errors: errors.length ? errors : [{ field: REQUEST, reason: 'the input is not valid' }],
    };
  }
  if (original instanceof OptimisticLockError) {
    return {
      status: 409,
      detail: 'the record was changed by someone else; read it again and retry',
      expected: true,
    };
  }
  const refused = refusalOf(original);
  if (refused) return refused;
  if (original instanceof ConnectionException || isConnectionFailure(original)) {
    return { status: 503, detail: 'the database is unavailable; retry shortly', expected: true };
  }
  if (original instanceof DriverException || sqlStateOf(original)) {
    countUnmappedRefusal(original as object, sqlStateOf(original) ?? 'unknown');
    return { status: 500, detail: 'internal server error', expected: false };
  }
  // A GraphQL error of graphql-js itself: parse, validation or variable coercion, i.e. the request.
  if (original instanceof GraphQLError) {
    const message = error instanceof GraphQLError ? error.message : original.message;
    const problem = requestErrorProblem(message);
    return {
      status: 400,
      detail: requestErrorDetail(message),
      expected: true,
      ...(problem ? { errors: [problem] } : {}),
    };
  }
  return { status: 500, detail: 'internal server error', expected: false };
}
