import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { helper } from '@mikro-orm/core';
import { badRequest } from '../../errors';
import { amount, cents, checkRange, sumLines, type LineAmounts } from './money';

/** Rules both kinds of invoice share. */

export const DEFAULT_CURRENCY = 'EUR';
export const DAY_MS = 24 * 60 * 60 * 1000;

export const addDays = (date: Date, days: number): Date => new Date(date.getTime() + days * DAY_MS);

/** Calendar months in UTC; the 31st plus one month is the last day of the next month. */
export function addMonths(date: Date, months: number): Date {
  const d = new Date(date.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

/** Whole UTC calendar days from `due` to `now`: 1 on the day after the due date, 0 or less before. */
export function daysPastDue(due: Date, now: Date): number {
  const start = (d: Date) => Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  return Math.round((start(now) - start(due)) / DAY_MS);
}

export const normalizeCurrency = (currency: string | null | undefined): string =>
  (currency ?? DEFAULT_CURRENCY).toUpperCase();

/** The value a property had when the record was read, before this request's changes. */
export function storedValue<T extends object, K extends keyof T>(entity: T, key: K): T[K] | undefined {
  const original = helper(entity).__originalEntityData as Partial<T> | undefined;
  return original?.[key];
}

/** As storedValue, for a JSON column (whose snapshot the ORM keeps as JSON text). */
export function storedJson<T extends object, K extends keyof T>(entity: T, key: K): T[K] | undefined {
  const value = storedValue(entity, key) as unknown;
  return (typeof value === 'string' ? JSON.parse(value) : value) as T[K] | undefined;
}

/**
 * Sets a JSON property, keeping the stored value when the content is the same. The ORM compares
 * JSON as text and the database hands JSON back with its keys reordered, so an equal value built
 * afresh would still count as an edit (and an UPDATE event).
 */
export function setJson<T extends object, K extends keyof T>(entity: T, key: K, value: T[K]): void {
  const stored = storedJson(entity, key);
  entity[key] = stored !== undefined && isDeepStrictEqual(stored, value) ? stored : value;
}

/** Input shapes (class instances holding Dates) as the plain JSON the column will hold. */
export const plainJson = <V>(value: V): V =>
  value === null || value === undefined ? value : (JSON.parse(JSON.stringify(value)) as V);

/** Stores the JSON inputs a request gives as they are (attachments, pdf...), see setJson. */
export function copyJsonInputs<T extends object>(entity: T, input: object, keys: (keyof T & string)[]): void {
  const given = input as Record<string, unknown>;
  for (const key of keys)
    if (given[key] !== undefined) setJson(entity, key, plainJson(given[key]) as T[typeof key]);
}

/** Line ids are kept when given (so a client can match lines across updates) and must not repeat. */
export function lineIds(ids: (string | null | undefined)[], field: string): string[] {
  const seen = new Set<string>();
  return ids.map((given, i) => {
    const id = given ?? randomUUID();
    if (seen.has(id)) throw badRequest(`${field}[${i}].id: ${id} is used twice`);
    seen.add(id);
    return id;
  });
}

/**
 * An invoice's rows as stored, and its totals: line ids kept or made, each row built by `rowOf`
 * with the amounts it carries (none for a row that only describes), and the totals summed from
 * them under the invoice's own field names.
 */
export function rowsAndTotals<S extends { id?: string | null }, R>(
  source: readonly S[],
  totalFields: Record<keyof LineAmounts, string>,
  rowOf: (given: S, id: string, field: string) => { row: R; line?: LineAmounts },
): { rows: R[]; totals: LineAmounts } {
  const ids = lineIds(
    source.map((r) => r.id),
    'rows',
  );
  const amounts: LineAmounts[] = [];
  const rows = source.map((given, i) => {
    const { row, line } = rowOf(given, ids[i], `rows[${i}]`);
    if (line) amounts.push(line);
    return row;
  });
  return { rows, totals: sumLines(amounts, totalFields) };
}

export const iso = (d: Date | string | null | undefined): string | null =>
  d === null || d === undefined ? null : new Date(d).toISOString();

/** A payment as a client sends it: the id of one already recorded, the amount and when. */
export interface PaymentInput {
  id?: string | null;
  amount: number;
  date?: Date | string | null;
}

/** A payment as stored: when it was made, and when and by whom the service recorded it. */
export interface StoredPayment {
  id: string;
  date?: string | null;
  created?: string | null;
  createdBy?: string | null;
}

/** What every payment holds: its id, its amount in cents within range, and when it was made. */
export interface PaymentBase {
  id: string;
  amount: number;
  date: string;
}

/**
 * The payments a request gives (an AP invoice's payments, a sales invoice's transactions) as they
 * are stored: line ids kept or made, amounts in range, the date given or else kept or else now;
 * `fields` adds a payment's own fields, and who recorded a payment first, and when, is kept.
 */
export function recordPayments<I extends PaymentInput, S extends StoredPayment, R>(
  input: readonly I[],
  stored: readonly S[],
  field: string,
  email: string,
  fields: (given: I, base: PaymentBase, before: S | undefined, now: string) => R,
): (R & { created: string; createdBy: string })[] {
  const previous = new Map(stored.map((p) => [p.id, p]));
  const ids = lineIds(
    input.map((p) => p.id),
    field,
  );
  const now = new Date().toISOString();
  return input.map((p, i) => {
    const before = previous.get(ids[i]);
    const base = {
      id: ids[i],
      amount: amount(checkRange(cents(p.amount), `${field}[${i}].amount`)),
      date: iso(p.date) ?? before?.date ?? now,
    };
    return {
      ...fields(p, base, before, now),
      created: before?.created ?? now,
      createdBy: before?.createdBy ?? email,
    };
  });
}

/**
 * Checks the status a request asks for against the stored one (`check`, the invoice kind's
 * moves). An explicit null asks for no change: the stored status stays, and cannot slip past the
 * check as a null would.
 */
export function applyStatusRequest<S, T extends { status?: S | null }>(
  entity: T,
  requested: S | null | undefined,
  isNew: boolean,
  check: (stored: S | undefined, requested: S | undefined) => void,
): void {
  const stored = isNew ? undefined : (storedValue(entity, 'status') ?? undefined);
  check(stored, requested ?? undefined);
  if (requested === null) entity.status = stored;
}

/** The latest of some ISO date-times, as a Date (null when none). */
export function latest(dates: (string | null | undefined)[]): Date | null {
  const times = dates.filter((d): d is string => !!d).map((d) => new Date(d).getTime());
  return times.length ? new Date(Math.max(...times)) : null;
}

/** a / b rounded half away from zero (b non-zero). */
export function divideRounded(a: bigint, b: bigint): bigint {
  const negative = a < 0n !== b < 0n;
  const x = a < 0n ? -a : a;
  const y = b < 0n ? -b : b;
  const q = (x * 2n + y) / (y * 2n);
  return negative ? -q : q;
}
