import { isDeepStrictEqual } from 'node:util';

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
