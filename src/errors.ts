import { GraphQLError } from 'graphql';

/**
 * Errors the domain raises on purpose. Each carries the HTTP status that decisions.md assigns to
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
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};
const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
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

/** The body every error response carries (decisions.md: `{title, detail, time}`). */
export interface ErrorBody {
  title: string;
  detail: string;
  time: string;
  status: number;
  requestId?: string;
}

export function errorBody(status: number, detail: string, requestId?: string, title?: string): ErrorBody {
  return { title: title ?? titleFor(status), detail, time: new Date().toISOString(), status, requestId };
}
