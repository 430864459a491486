import {
  ConnectionException,
  ConstraintViolationException,
  DriverException,
  ForeignKeyConstraintViolationException,
  LockWaitTimeoutException,
  DeadlockException,
  OptimisticLockError,
  UniqueConstraintViolationException,
} from '@mikro-orm/core';
import { GraphQLError } from 'graphql';
import { ArgumentValidationError } from 'type-graphql';
import type { ValidationError } from 'class-validator';
import { AppError, REQUEST, type Problem } from './errors';

/**
 * One place that decides what an error means to a client: its HTTP status and a detail safe to
 * show. Used by the REST facade and by Apollo's formatError, so both say the same.
 */
export interface ClientError {
  status: number;
  detail: string;
  /** True when the detail is ours to show; false for unexpected errors (logged, shown generically). */
  expected: boolean;
  /** Each culprit, when the error names them one by one. */
  errors?: Problem[];
}

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
  if (original instanceof UniqueConstraintViolationException) {
    return { status: 409, detail: 'a record with the same unique values already exists', expected: true };
  }
  // 23001: an ON DELETE RESTRICT key refused a delete (newer PostgreSQL reports it apart from 23503).
  if (
    original instanceof ForeignKeyConstraintViolationException ||
    (original instanceof DriverException && (original as { code?: string }).code === '23001')
  ) {
    return {
      status: 409,
      detail: 'the record is referenced by, or refers to, records that prevent this change',
      expected: true,
    };
  }
  if (original instanceof DeadlockException || original instanceof LockWaitTimeoutException) {
    return { status: 409, detail: 'the record is being changed concurrently; retry', expected: true };
  }
  if (original instanceof ConnectionException || isConnectionFailure(original)) {
    return { status: 503, detail: 'the database is unavailable; retry shortly', expected: true };
  }
  if (original instanceof ConstraintViolationException) {
    return { status: 400, detail: 'the input violates a constraint of the record', expected: true };
  }
  // A raw driver error (from hand-written SQL): PostgreSQL's class 22 means malformed input.
  const pgCode = (original as { code?: unknown } | null)?.code;
  if (
    !(original instanceof DriverException) &&
    typeof pgCode === 'string' &&
    /^22[0-9A-Z]{3}$/.test(pgCode)
  ) {
    return { status: 400, detail: 'a value in the request is out of range or malformed', expected: true };
  }
  if (original instanceof DriverException) {
    const code = (original as DriverException & { code?: string }).code ?? '';
    // 22xxx: data exceptions (a value out of range, a malformed literal): the client's input.
    if (code.startsWith('22'))
      return { status: 400, detail: 'a value in the request is out of range or malformed', expected: true };
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
