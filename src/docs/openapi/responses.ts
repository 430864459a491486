import type { CompiledRoute } from '../../rest/compile';
import type { JsonSchema, SchemaComponents } from '../json-schema';
import { takesIdempotencyKey } from '../../rest/route';

/** docs/conventions.md "Responses": every status the service answers with, and when. */
export const ERRORS: [status: number, component: string, description: string][] = [
  [
    400,
    'BadRequest',
    'Malformed JSON, a body of the wrong JSON type, a bad, missing or unknown parameter, or failed validation; `detail` names every culprit, and `errors` lists them one by one.',
  ],
  [
    401,
    'Unauthorized',
    'Missing, malformed, expired or wrongly signed credential, or an unknown or inactive user.',
  ],
  [403, 'Forbidden', 'The caller lacks the permission the operation needs.'],
  [404, 'NotFound', 'Unknown path or record (a malformed id, or a record of another tenant, too).'],
  [
    409,
    'Conflict',
    'A uniqueness or concurrent-update conflict, or a request with the same `Idempotency-Key` is still running.',
  ],
  [413, 'PayloadTooLarge', 'The request body is larger than 1 MiB.'],
  [415, 'UnsupportedMediaType', 'The request body is not JSON.'],
  [
    422,
    'UnprocessableContent',
    'The `Idempotency-Key` was used for a different request (method, path, query or body) within 24 hours.',
  ],
  [429, 'TooManyRequests', 'Rate limited; retry after `Retry-After` seconds.'],
  [500, 'InternalServerError', 'An unexpected error; the body never holds a stack trace or SQL.'],
  [503, 'ServiceUnavailable', 'The database is unavailable; retry after `Retry-After` seconds.'],
];

/** The response headers the document names, in `components.headers`. */
export const headers: Record<string, unknown> = {
  'X-Request-Id': {
    description: 'The request id: the one sent in X-Request-Id, or a generated one. Logs carry it too.',
    schema: { type: 'string' },
  },
  Location: { description: 'The path of the created record.', required: true, schema: { type: 'string' } },
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 86400 },
  },
  'WWW-Authenticate': { description: 'How to authenticate: `Bearer`.', schema: { type: 'string' } },
  'Idempotent-Replayed': {
    description:
      '`true` when this is the stored answer of an earlier request with the same `Idempotency-Key`.',
    schema: { type: 'string', enum: ['true'] },
  },
  // The `draft-8` headers as express-rate-limit writes them (src/http/hardening.ts): sent on every
  // answer under /api/v1 while the per-credential limit is on (RATE_LIMIT_PER_CREDENTIAL, default on).
  RateLimit: {
    description:
      'The caller’s remaining quota in the current window (IETF draft-ietf-httpapi-ratelimit-headers-08), e.g. `"1200-in-1min"; r=1199; t=60`: `r` requests remain, the window resets in `t` seconds. Absent when rate limiting is turned off.',
    schema: { type: 'string', maxLength: 256 },
  },
  'RateLimit-Policy': {
    description:
      'The quota policy (IETF draft-ietf-httpapi-ratelimit-headers-08), e.g. `"1200-in-1min"; q=1200; w=60`: `q` requests per `w` seconds per credential. Absent when rate limiting is turned off.',
    schema: { type: 'string', maxLength: 256 },
  },
  'Access-Control-Allow-Origin': {
    description:
      'Sent to a browser request from an origin listed in CORS_ORIGINS (all origins with `*`); absent otherwise, which a browser takes as a refusal.',
    schema: { type: 'string', maxLength: 2048 },
  },
};

/** The headers every answer under /api/v1 may carry. */
export const common = () => ({
  'X-Request-Id': headerRef('X-Request-Id'),
  RateLimit: headerRef('RateLimit'),
  'RateLimit-Policy': headerRef('RateLimit-Policy'),
  'Access-Control-Allow-Origin': headerRef('Access-Control-Allow-Origin'),
});

export const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** The body of every error response, registered as the `Error` component. */
export function defineErrorSchema(components: SchemaComponents): JsonSchema {
  return components.define('Error', {
    type: 'object',
    description: 'The body of every error response.',
    properties: {
      title: { type: 'string', description: 'A short summary of the status, e.g. "Not Found".' },
      detail: { type: 'string', description: 'What went wrong, naming the culprit field or parameter.' },
      time: { type: 'string', format: 'date-time', description: 'When the error happened (UTC).' },
      status: {
        type: 'integer',
        format: 'int32',
        minimum: 400,
        maximum: 599,
        description: 'The HTTP status.',
      },
      requestId: { type: 'string', description: 'The request id, as in the X-Request-Id header.' },
      errors: {
        type: 'array',
        description:
          'Present on a 400 whose culprits can be named one by one: every bad field, missing or unknown parameter, each with its path and what is wrong with it. `detail` says the same in one sentence.',
        items: {
          type: 'object',
          properties: {
            field: {
              type: 'string',
              description:
                'The field (a path such as `rows[1].quantity`) or parameter at fault; `(request)` for the request as a whole.',
            },
            reason: { type: 'string', description: 'What is wrong with it.' },
          },
          required: ['field', 'reason'],
        },
      },
    },
    required: ['title', 'detail', 'time'],
  });
}

/** `components.responses`: one per error status, each with the error body. */
export function errorResponses(errorRef: JsonSchema): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, name, description] of ERRORS) {
    const extra =
      status === 401
        ? { 'WWW-Authenticate': headerRef('WWW-Authenticate') }
        : status === 429 || status === 503
          ? { 'Retry-After': headerRef('Retry-After') }
          : {};
    responses[name] = {
      description,
      headers: { ...common(), ...extra },
      content: { 'application/json': { schema: errorRef } },
    };
  }
  return responses;
}

/** The CSV itself, for a client that asks for it with `Accept: text/csv`. */
const csvContent = (filename: string) => ({
  schema: {
    type: 'string',
    description: `The same CSV as the JSON string, answered when the request's \`Accept\` ranks \`text/csv\` above \`application/json\`, with \`Content-Disposition: attachment; filename="${filename}"\`.`,
  },
});

/** An operation's responses: its success status, then every error status that can apply to it. */
export function operationResponses(
  route: CompiledRoute['route'],
  resultSchema: JsonSchema,
  hasBody: boolean,
): Record<string, unknown> {
  const status = route.status ?? 200;
  const success: Record<string, unknown> =
    status === 204
      ? { description: 'Done; no content.', headers: common() }
      : {
          description: status === 201 ? 'Created.' : 'OK.',
          headers: {
            ...common(),
            ...(status === 201 ? { Location: headerRef('Location') } : {}),
          },
          content: route.document
            ? Object.fromEntries(
                route.document.types.map((type) => [
                  type,
                  {
                    schema: {
                      type: 'string',
                      format: 'binary',
                      description: 'The document, as an attachment.',
                    },
                  },
                ]),
              )
            : {
                'application/json': { schema: resultSchema },
                ...(route.csv ? { 'text/csv': csvContent(route.csv.filename) } : {}),
              },
        };
  const write = takesIdempotencyKey(route);
  if (write)
    (success.headers as Record<string, unknown>)['Idempotent-Replayed'] = headerRef('Idempotent-Replayed');
  const responses: Record<string, unknown> = { [String(status)]: success };
  for (const [code, name] of ERRORS) {
    if ((code === 413 || code === 415) && !hasBody) continue;
    // A read answers 409 only where it makes a document from records that lack what it needs.
    if (code === 409 && !write && !route.document) continue;
    if (code === 422 && !write) continue;
    responses[String(code)] = { $ref: `#/components/responses/${name}` };
  }
  return responses;
}
