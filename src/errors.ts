import { GraphQLError } from 'graphql';

/**
 * Errors the domain raises on purpose. Each carries the HTTP status that docs/conventions.md assigns to
 * its condition; GraphQL exposes it as `extensions.code` / `extensions.status`, and the REST
 * facade answers with that status.
 */
export class AppError extends GraphQLError {
  constructor(
    readonly status: number,
    readonly title: string,
    detail: string,
    extra: Record<string, unknown> = {},
  ) {
    super(detail, { extensions: { code: codeFor(status), status, title, ...extra } });
  }
}

const codes: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  416: 'RANGE_NOT_SATISFIABLE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};
const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function codeFor(status: number): string {
  return codes[status] ?? 'INTERNAL_SERVER_ERROR';
}
export function titleFor(status: number): string {
  return titles[status] ?? 'Error';
}

export const badRequest = (detail: string) => new AppError(400, titleFor(400), detail);
export const unauthorized = (detail = 'A valid bearer credential is required') =>
  new AppError(401, titleFor(401), detail);
export const forbidden = (detail = 'The caller lacks the permission this operation needs') =>
  new AppError(403, titleFor(403), detail);
export const notFound = (detail: string) => new AppError(404, titleFor(404), detail);
export const conflict = (detail: string) => new AppError(409, titleFor(409), detail);
export const unavailable = (detail = 'The database is unavailable; retry shortly') =>
  new AppError(503, titleFor(503), detail);

/** One culprit of a request: the field or parameter at fault (a path such as `rows[1].quantity`). */
export interface Problem {
  field: string;
  reason: string;
}

/**
 * One error that names several culprits: `detail` says them all in one sentence, `errors` lists
 * them for programs. A single problem whose own message is kept (`detail`) stays as it was.
 */
export function problems(status: number, list: readonly (Problem & { message?: string })[]): AppError {
  const detail = list.map((p) => p.message ?? `${p.field}: ${p.reason}`).join('; ');
  const errors = list.map(({ field, reason }) => ({ field, reason }));
  return new AppError(status, titleFor(status), detail, { errors });
}

/** A 400 naming one field, with the message the client reads; carries its Problem too. */
export const invalidField = (field: string, reason: string, message = `${field}: ${reason}`) =>
  problems(400, [{ field, reason, message }]);

/** The problems an error names: its own list, or one problem taken from its detail. */
export function problemsOf(error: AppError): (Problem & { message: string })[] {
  const listed = error.extensions.errors as Problem[] | undefined;
  if (listed?.length === 1) return [{ ...listed[0], message: error.message }];
  if (listed) return listed.map((p) => ({ ...p, message: `${p.field}: ${p.reason}` }));
  const named = /^([\w.[\]]+): (.*)$/s.exec(error.message);
  return [{ field: named?.[1] ?? REQUEST, reason: named?.[2] ?? error.message, message: error.message }];
}

/** The `field` of a problem that is not one field's (a body of the wrong kind, a bad combination). */
export const REQUEST = '(request)';

/**
 * The body every error response carries (docs/conventions.md: `{title, detail, time}`); `errors` is
 * present when the request had problems the service can name one by one.
 */
export interface ErrorBody {
  title: string;
  detail: string;
  time: string;
  status: number;
  requestId?: string;
  errors?: Problem[];
}

export function errorBody(
  status: number,
  detail: string,
  requestId?: string,
  title?: string,
  errors?: Problem[],
): ErrorBody {
  return {
    title: title ?? titleFor(status),
    detail,
    time: new Date().toISOString(),
    status,
    requestId,
    ...(errors?.length ? { errors } : {}),
  };
}

/** What an error means to a client (error-mapping.ts decides it): its status and a detail safe to show. */
export interface ClientError {
  status: number;
  detail: string;
  /** True when the detail is ours to show; false for unexpected errors (logged, shown generically). */
  expected: boolean;
  /** Each culprit, when the error names them one by one. */
  errors?: Problem[];
}
