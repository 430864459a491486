/**
 * An answer's JSON text as UTF-8 bytes, the same bytes as `Buffer.from(JSON.stringify(value))`.
 *
 * `JSON.stringify` returns a long text as a rope of pieces, and whatever reads it whole first (its
 * byte length, its encoding, a hash) flattens it into one string; V8 puts strings of more than
 * 128K characters in its large-object space, where making one costs more than stringifying and
 * encoding the text (a page of 200 features is well over that). So a list longer than
 * `LONG_LIST`, found within a few levels of plain objects (a page's `content`, a GraphQL answer's
 * `data.result.content`), is written element by element, each element stringified and encoded on
 * its own, and the bytes joined once. A smaller answer is stringified and encoded whole.
 */
export function jsonBytes(value: unknown, trailer = ''): Buffer {
  if (!holdsLongList(value, DEPTH)) return Buffer.from((JSON.stringify(value) ?? '') + trailer);
  const pieces: string[] = [];
  writePieces(value, DEPTH, pieces);
  if (trailer) pieces.push(trailer);
  return Buffer.concat(pieces.map((piece) => Buffer.from(piece)));
}

const LONG_LIST = 16;
/** Levels of plain objects looked into for a long list. */
const DEPTH = 4;

/** An object `JSON.stringify` writes as its own enumerable string-keyed properties. */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return (
    (proto === Object.prototype || proto === null) &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  );
}

/** A list `JSON.stringify` writes element by element, and long enough to be written in pieces. */
const isLongList = (value: unknown): value is unknown[] =>
  Array.isArray(value) &&
  value.length > LONG_LIST &&
  typeof (value as { toJSON?: unknown }).toJSON !== 'function';

function holdsLongList(value: unknown, depth: number): boolean {
  if (isLongList(value)) return true;
  if (depth === 0 || !isPlainRecord(value)) return false;
  for (const key of Object.keys(value)) if (holdsLongList(value[key], depth - 1)) return true;
  return false;
}

/**
 * Appends the JSON text of `value`, which holds a long list within `depth` levels, to `out` in
 * pieces: the long list element by element, a plain object property by property, and whatever
 * holds no long list whole.
 */
function writePieces(value: unknown, depth: number, out: string[]): void {
  if (isLongList(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',');
      out.push(JSON.stringify(value[i]) ?? 'null');
    }
    out.push(']');
    return;
  }
  let separator = '{';
  for (const [key, property] of Object.entries(value as Record<string, unknown>)) {
    // What JSON.stringify leaves out of an object.
    if (property === undefined || typeof property === 'function' || typeof property === 'symbol') continue;
    out.push(`${separator}${JSON.stringify(key)}:`);
    separator = ',';
    if (holdsLongList(property, depth - 1)) writePieces(property, depth - 1, out);
    else out.push(JSON.stringify(property));
  }
  out.push('}');
}
