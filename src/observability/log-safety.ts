import { stdSerializers } from 'pino';

/**
 * Logs carry ids, routes and timings, never credentials or personal data. Request bodies and
 * headers are never logged; what can still carry data is the text of an unexpected error (a
 * driver error quotes the SQL with its values, PostgreSQL's detail quotes the conflicting key)
 * and a path keyed by e-mail. Those are scrubbed here.
 */
const EMAIL = /[^\s/'"(),;:<>@]+(?:@|%40)[^\s/'"(),;:<>]+/gi;
const BEARER = /\b(Bearer\s+)[\w.~+/-]+=*/gi;
const JWT = /\beyJ[\w-]*\.[\w-]*\.[\w-]*/g;
const SQL_LITERAL = /'(?:[^']|'')*'/g;
const KEY_VALUE = /(\([^()]*\))=\((?:[^()]|\([^()]*\))*\)/g;

export function scrubText(text: string): string {
  return text
    .replace(BEARER, '$1[redacted]')
    .replace(JWT, '[redacted]')
    .replace(EMAIL, '[email]')
    .replace(SQL_LITERAL, "'?'")
    .replace(KEY_VALUE, '$1=(?)');
}

/** Properties of driver errors that hold request values outright. */
const VALUE_KEYS = new Set(['parameters', 'params', 'bindings', 'values', 'variables', 'body', 'headers']);

function scrubValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (!VALUE_KEYS.has(key)) out[key] = scrubValue(v, depth + 1);
  }
  return out;
}

/** pino's error serializer, with values in messages, stacks and details scrubbed. */
export function safeError(err: unknown): unknown {
  if (!(err instanceof Error)) return scrubValue(err, 0);
  return scrubValue(stdSerializers.err(err), 0);
}
