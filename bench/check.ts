import { isDeepStrictEqual } from 'node:util';
import { PEER_COLUMNS } from './scenarios';

/**
 * Whether two answers are the same JSON. For creates, the values each insert makes anew (id,
 * timestamps, event ids and dates) are left out: the shape and everything else must agree.
 */
const FRESH = new Set(['id', 'created', 'updated', 'date']);

function withoutFresh(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutFresh);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([k]) => !FRESH.has(k))
      .map(([k, v]) => [k, withoutFresh(v)]),
  );
}

export function sameJson(a: unknown, b: unknown, created = false): boolean {
  return created ? isDeepStrictEqual(withoutFresh(a), withoutFresh(b)) : isDeepStrictEqual(a, b);
}

/** A date as a number, so that `…Z` and `…+00:00` with more digits compare equal. */
const time = (value: unknown) => (typeof value === 'string' ? Date.parse(value) : value);

/** A feature's stored columns, as both GraphQL servers and the REST facade answer them. */
function storedColumns(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const column of PEER_COLUMNS) out[column] = row[column] ?? null;
  out.created = time(out.created);
  out.updated = time(out.updated);
  return out;
}

/**
 * What the peer comparison holds equal: for one record, its stored columns; for a page, its rows'
 * stored columns in order and the count of all matches. `answer` is the REST body, or the
 * `result` field of a GraphQL answer (ours: `content`/`totalElements`; the peer's:
 * `nodes`/`totalCount`).
 */
export function peerView(page: boolean, answer: any): unknown {
  if (!answer) return answer;
  if (!page) return storedColumns(answer);
  const rows = (answer.content ?? answer.nodes ?? []) as Record<string, unknown>[];
  return { rows: rows.map(storedColumns), total: Number(answer.totalElements ?? answer.totalCount) };
}

/** The names an answer holds at each level (of a list, its first element's): its shape, without values. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? [shape(value[0])] : [];
  if (value === null || typeof value !== 'object') return null;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, shape((value as Record<string, unknown>)[k])]),
  );
}

/**
 * Whether two answers about different rows have the same shape (the compared checkout on a
 * database of its own answers about its own ids). A list empty on one side matches any list.
 */
export function sameShape(a: unknown, b: unknown): boolean {
  const fits = (x: unknown, y: unknown): boolean => {
    if (Array.isArray(x) && Array.isArray(y)) return x.length === 0 || y.length === 0 || fits(x[0], y[0]);
    if (x === null || y === null) return true;
    if (typeof x !== 'object' || typeof y !== 'object') return false;
    const kx = Object.keys(x as object);
    const ky = Object.keys(y as object);
    return kx.length === ky.length && kx.every((k) => ky.includes(k) && fits((x as any)[k], (y as any)[k]));
  };
  return fits(shape(a), shape(b));
}
