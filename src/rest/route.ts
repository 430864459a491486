import type { Request } from 'express';

/**
 * One documented REST operation as data: which GraphQL root field serves it, where each of
 * the field's arguments comes from, and how the answer is sent. Arguments not listed come from
 * the path when the path names them, otherwise from the query string; their GraphQL types say
 * how the text is read.
 */
export type ArgSource =
  | { from: 'path'; name?: string }
  | { from: 'query'; name?: string; default?: unknown }
  | {
      from: 'body';
      default?: unknown;
      /**
       * Without a body, the input object's scalar fields are read from query parameters of the
       * same names instead (an operation the specification documents with flat parameters).
       */
      orQuery?: boolean;
    }
  | {
      from: 'request';
      read: (req: Request) => unknown;
      /** Where `read` takes its values from, for the OpenAPI document (default: body on POST/PUT/PATCH). */
      in?: 'query' | 'body';
      /** The query parameters `read` reads (a search's are known without listing them). */
      query?: readonly string[];
    };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RestRoute {
  method: HttpMethod;
  /** Path below /api/v1, in the specification's form: `/concepts/find/{id}`. */
  path: string;
  /** The GraphQL root field (Query or Mutation) that does the work. */
  field: string;
  args?: Record<string, ArgSource>;
  /** 200 (default), 201 (with a Location header) or 204 (no body). */
  status?: 200 | 201 | 204;
  /** A null result (or `false` from a delete) means the record does not exist: 404. */
  nullIs404?: boolean;
  /** For 201: the path of the new resource, from the result. */
  location?: (result: any) => string;
  /** Family code (S1..S10, create, bulk-delete) or `custom`: for documentation and the matrix test. */
  code?: string;
  /** Not in the specification: marked `x-extension` in the OpenAPI document. */
  extension?: boolean;
  /** Summary for the OpenAPI document. */
  summary?: string;
  /**
   * The answer selects every field of its type, those marked `rest: false` too: an extension's
   * answer that no specification shape binds (a stored file's download links).
   */
  allFields?: boolean;
  /**
   * The answer is CSV text: by default sent as a JSON string (as documented); a client whose
   * `Accept` prefers `text/csv` gets the CSV itself as an attachment named `filename`.
   */
  csv?: { filename: string };
  /**
   * The answer is a document made by the service (an e-invoice): the field returns
   * `{fileName, contentType, content}` with the bytes in base64, and the client receives the bytes
   * themselves, with that media type, as an attachment of that name. `types` lists the media types
   * it can be, for the OpenAPI document.
   */
  document?: { types: readonly string[] };
  /**
   * The body may also be an XML document (`application/xml`, `text/xml`), which reaches the row's
   * body argument as text; the app reads such a body for this row's path only (src/app.ts).
   */
  xmlBody?: boolean;
  /**
   * The body may also be a whole e-mail (`message/rfc822`), which reaches the row's reader as
   * its bytes; the app reads such a body for this row's path only (src/app.ts).
   */
  rawMessageBody?: boolean;
}

/** Every row but a read takes an `Idempotency-Key` (src/http/idempotency.ts); the document says so. */
export const takesIdempotencyKey = (route: Pick<RestRoute, 'method'>): boolean => route.method !== 'GET';

/** The names a row's path template holds: `/crm/leads/{id}` holds `id`. */
export const pathParamsOf = (route: Pick<RestRoute, 'path'>): string[] =>
  [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

/** Where an argument comes from: as the row says, else the path when it names it, else the query. */
export const sourceOf = (route: RestRoute, arg: string, pathParams: readonly string[]): ArgSource =>
  route.args?.[arg] ?? (pathParams.includes(arg) ? { from: 'path' } : { from: 'query' });

export const path = (name?: string): ArgSource => ({ from: 'path', name });
export const query = (name?: string, dflt?: unknown): ArgSource => ({ from: 'query', name, default: dflt });
export const body = (dflt?: unknown): ArgSource => ({ from: 'body', default: dflt });
export const bodyOrQuery = (): ArgSource => ({ from: 'body', orQuery: true });
export const fromRequest = (
  read: (req: Request) => unknown,
  where?: 'query' | 'body',
  queryNames?: readonly string[],
): ArgSource => ({ from: 'request', read, in: where, query: queryNames });
