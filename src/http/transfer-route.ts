/** The refusals an operation's document may name, by their response component. */
export type Refusal =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'Conflict'
  | 'PayloadTooLarge'
  | 'UnsupportedMediaType'
  | 'TooManyRequests'
  | 'InternalServerError'
  | 'ServiceUnavailable';

interface TransferBase {
  /** Path below /api/v1, in the document's form: `/files/{id}`. */
  path: string;
  operationId: string;
  /** The description of the path's `{id}`, when it has one. */
  id?: string;
  /** A path whose operations' tag it shares, when its own path's is another (`/files`). */
  taggedAs?: string;
}

/** A download: the bytes with their type, length, ETag and disposition; ranges; a redirect. */
export interface Download extends TransferBase {
  method: 'GET';
  /** What is downloaded (`a stored file`): the summary is `Download <what>`. */
  what: string;
  /** What the description says after what every download does. */
  more?: string;
  /** Refusals besides a download's own (401, 404, 429, 500, 503). */
  refusals?: readonly Refusal[];
}

/** An upload: a multipart/form-data body whose part `file` is streamed to the store. */
export interface Upload extends TransferBase {
  method: 'POST';
  summary: string;
  description: string;
  /**
   * A 201 with a Location and, as its body, the answer of the REST operation `as`
   * (`GET /files/{id}/info`), or a 204.
   */
  answer: { status: 201; description: string; as: string } | { status: 204; description: string };
  /** The security scheme that stands for the credential (a signature in the URL), if not the caller's. */
  security?: string;
  refusals: readonly Refusal[];
}

/**
 * An operation whose body or answer is a file's bytes, so served by an Express router of its own
 * rather than through GraphQL: declared once, for the router (its path and the request log's
 * name) and the OpenAPI document (src/docs/openapi/transfers.ts), as the REST table's rows are.
 */
export type TransferRoute = Download | Upload;

/** The path as Express matches it: `/files/{id}` is `/files/:id`. */
export const expressPath = (route: Pick<TransferRoute, 'path'>): string =>
  route.path.replace(/\{(\w+)\}/g, ':$1');

/** How the request log names the operation: `GET /files/{id}`. */
export const routeName = (route: Pick<TransferRoute, 'method' | 'path'>): string =>
  `${route.method} ${route.path}`;
