import { ValidationError as OrmValidationError } from '@mikro-orm/core';
import { Counter } from 'prom-client';
import type { ClientError, Problem } from '../errors';

/**
 * What a client is told when the database refuses what its request would store: each refusal,
 * by SQLSTATE, with its status and the reason given for the field (or the conflict) it names.
 * PostgreSQL reports the column of a NOT NULL refusal, and the table and constraint of a unique,
 * foreign key or check refusal, so the field is named wherever the database says which it is.
 * docs/conventions.md ("Responses") publishes this table; test/foundation/error-mapping.test.ts
 * provokes each refusal on a real database and checks the answer.
 */
export interface Refusal {
  status: number;
  /** PostgreSQL's name of the condition. */
  name: string;
  /** Said of the field named: `epicId: refers to a record that does not exist`. */
  reason: string;
  /** The whole detail when the refusal names no field. */
  detail?: string;
}

const CONCURRENT = 'the record is being changed concurrently; retry';
const STILL_REFERRED_TO = 'the record is referred to by records that prevent this change';

export const DATABASE_REFUSALS: Readonly<Record<string, Refusal>> = {
  '23502': { status: 400, name: 'not_null_violation', reason: 'must not be null' },
  '23505': {
    status: 409,
    name: 'unique_violation',
    reason: 'a record with the same value already exists',
  },
  '23503': {
    status: 409,
    name: 'foreign_key_violation',
    reason: 'refers to a record that does not exist',
    detail: 'the record is referenced by, or refers to, records that prevent this change',
  },
  '23001': {
    status: 409,
    name: 'restrict_violation',
    reason: 'is referred to by records that prevent this change',
    detail: STILL_REFERRED_TO,
  },
  '23514': { status: 400, name: 'check_violation', reason: 'is not one of the values the field allows' },
  '23P01': { status: 409, name: 'exclusion_violation', reason: 'conflicts with another record' },
  '22001': { status: 400, name: 'string_data_right_truncation', reason: 'is longer than the field allows' },
  '22003': { status: 400, name: 'numeric_value_out_of_range', reason: 'is out of the range the field holds' },
  '22007': { status: 400, name: 'invalid_datetime_format', reason: 'is not a valid date or time' },
  '22008': { status: 400, name: 'datetime_field_overflow', reason: 'is not a valid date or time' },
  '22P02': {
    status: 400,
    name: 'invalid_text_representation',
    reason: 'is not a valid value of the field’s type',
  },
  '22021': {
    status: 400,
    name: 'character_not_in_repertoire',
    reason: 'holds characters that cannot be stored',
  },
  '22P05': {
    status: 400,
    name: 'untranslatable_character',
    reason: 'holds characters that cannot be stored',
  },
  '22012': { status: 400, name: 'division_by_zero', reason: 'leads to a division by zero' },
  '2201B': { status: 400, name: 'invalid_regular_expression', reason: 'is not a valid pattern' },
  '22023': { status: 400, name: 'invalid_parameter_value', reason: 'is not a valid value' },
  '54000': { status: 400, name: 'program_limit_exceeded', reason: 'is too large to be stored' },
  '40001': { status: 409, name: 'serialization_failure', reason: CONCURRENT, detail: CONCURRENT },
  '40P01': { status: 409, name: 'deadlock_detected', reason: CONCURRENT, detail: CONCURRENT },
  '55P03': { status: 409, name: 'lock_not_available', reason: CONCURRENT, detail: CONCURRENT },
  // The statement timeout (db/orm.ts) ended a statement: a request too heavy, or a database too busy.
  '57014': {
    status: 503,
    name: 'query_canceled',
    reason: 'took too long to answer',
    detail: 'the database took too long to answer; narrow the request or retry shortly',
  },
};

/** Every other data exception (class 22) and integrity refusal (class 23): the client's input. */
const CLASS_DEFAULTS: Readonly<Record<string, Refusal>> = {
  '22': { status: 400, name: 'data_exception', reason: 'is out of range or malformed' },
  '23': { status: 400, name: 'integrity_constraint_violation', reason: 'violates a rule of the record' },
};

/** The SQLSTATE of an error from PostgreSQL (through MikroORM, pg or PGlite), if it is one. */
export function sqlStateOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(?:[0-9][0-9A-Z]|P0|XX|F0|HV)[0-9A-Z]{3}$/.test(code)
    ? code
    : undefined;
}

const camel = (column: string) => column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The columns a unique or foreign key refusal names in its detail: `Key (tenant_id, name)=(…)`. */
function keyColumns(detail: string | undefined): string[] {
  const m = /^Key \(([^)]*)\)=/.exec(detail ?? '');
  if (!m) return [];
  return m[1]
    .split(',')
    .map((c) => c.trim().replace(/^"|"$/g, ''))
    .filter((c) => c !== 'tenant_id');
}

/** The column a check constraint guards, when it is named as PostgreSQL names them: `table_column_check`. */
function checkedColumn(table: string | undefined, constraint: string | undefined): string | undefined {
  if (!table || !constraint?.startsWith(`${table}_`) || !constraint.endsWith('_check')) return undefined;
  return constraint.slice(table.length + 1, -'_check'.length) || undefined;
}

interface PgFields {
  column?: string;
  table?: string;
  constraint?: string;
  detail?: string;
}

/** The fields a refusal names, from what PostgreSQL reported with it. */
function fieldsOf(code: string, pg: PgFields): string[] {
  if (code === '23502' && pg.column) return [camel(pg.column)];
  if (code === '23505' || code === '23503' || code === '23P01') return keyColumns(pg.detail).map(camel);
  if (code === '23514') {
    const column = checkedColumn(pg.table, pg.constraint);
    return column ? [camel(column)] : [];
  }
  return [];
}

/** A value MikroORM refuses before its statement is sent: a required property left empty. */
function ormRefusal(err: OrmValidationError): ClientError | undefined {
  const m = /^Value for \w+\.(\w+) is required/.exec(err.message);
  if (!m) return undefined;
  const problem = { field: m[1], reason: 'is required' };
  return { status: 400, detail: `${problem.field}: ${problem.reason}`, expected: true, errors: [problem] };
}

/**
 * The client error a database refusal means, or undefined when the error is no refusal of the
 * request's data (a lost connection, a fault of the service's own SQL).
 */
export function refusalOf(err: unknown): ClientError | undefined {
  if (err instanceof OrmValidationError) return ormRefusal(err);
  const code = sqlStateOf(err);
  if (!code) return undefined;
  const known = DATABASE_REFUSALS[code] ?? CLASS_DEFAULTS[code.slice(0, 2)];
  if (!known) return undefined;
  const pg = err as PgFields;
  const fields = fieldsOf(code, pg);
  // A key still referred to is a delete's (or a key change's) conflict, not a field's fault.
  const referredTo = code === '23503' && / is still referenced from table /.test(pg.detail ?? '');
  if (!fields.length || referredTo) {
    // PostgreSQL reports a restrict key still referred to as a foreign key violation, PGlite as
    // a restrict violation: one answer for both.
    const detail = referredTo
      ? STILL_REFERRED_TO
      : (known.detail ?? `a value in the request ${known.reason}`);
    return { status: known.status, detail, expected: true };
  }
  const errors: Problem[] = fields.map((field) => ({ field, reason: known.reason }));
  const detail = errors.map((p) => `${p.field}: ${p.reason}`).join('; ');
  return { status: known.status, detail, expected: true, errors };
}

/**
 * Database errors answered with a 500: a refusal this module does not map, or a fault of the
 * service's own SQL. Either is a bug to fix, never an answer a client's input should get; the
 * counter is in every app's /metrics, and the tests fail a file whose server counted one
 * (test/support/server.ts).
 */
export const unmappedRefusals = new Counter({
  name: 'database_errors_unmapped_total',
  help: 'Database errors answered as 500 Internal Server Error, by SQLSTATE: each is a bug to fix.',
  labelNames: ['sqlstate'],
  registers: [],
});

/** Errors counted already: one error may be classified at several steps of its request. */
const counted = new WeakSet<object>();

export function countUnmappedRefusal(err: object, sqlstate: string): void {
  if (counted.has(err)) return;
  counted.add(err);
  unmappedRefusals.inc({ sqlstate });
}

/** How many unmapped database errors this process has answered so far. */
export async function unmappedRefusalCount(): Promise<number> {
  const { values } = await unmappedRefusals.get();
  return values.reduce((sum, v) => sum + v.value, 0);
}
