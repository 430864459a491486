import { checkExchange } from './openapi-exchange';

/**
 * A small HTTP client for tests: every call returns status, headers and the parsed body, and every
 * exchange under /api/v1 is checked against the published OpenAPI document (openapi-exchange.ts).
 */
export interface Response<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export class Client {
  constructor(
    readonly baseUrl: string,
    readonly token?: string,
  ) {}

  withToken(token: string | undefined): Client {
    return new Client(this.baseUrl, token);
  }

  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Response<T>> {
    const h: Record<string, string> = { ...headers };
    if (this.token && !('authorization' in h)) h.authorization = `Bearer ${this.token}`;
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' && h['content-type'] ? body : JSON.stringify(body);
      h['content-type'] ??= 'application/json';
    }
    const url =
      path.startsWith('/graphql') || path.startsWith('/healthz') || path.startsWith('/readyz')
        ? path
        : `/api/v1${path}`;
    const res = await fetch(this.baseUrl + url, { method, headers: h, body: payload });
    const text = await res.text();
    let parsed: any = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    const [pathname, query = ''] = url.split('?', 2);
    await checkExchange(this.baseUrl, {
      method,
      path: pathname,
      query,
      requestHeaders: h,
      requestBody: payload === undefined ? undefined : body,
      status: res.status,
      headers: res.headers,
      body: parsed,
    });
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, undefined, headers);
  }
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, body, headers);
  }
  put<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PUT', path, body, headers);
  }
  patch<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PATCH', path, body, headers);
  }
  delete<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('DELETE', path, body, headers);
  }

  /** A GraphQL operation; returns the HTTP response whose body is {data, errors}. */
  graphql<T = any>(query: string, variables?: Record<string, unknown>) {
    return this.request<{
      data?: T;
      errors?: { message: string; extensions?: { code?: string; status?: number } }[];
    }>('POST', '/graphql', {
      query,
      variables,
    });
  }
}

/** The documented error body (docs/conventions.md). */
export function expectErrorBody(res: Response, status: number): void {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/application\/json/);
  expect(res.body).toEqual(
    expect.objectContaining({
      title: expect.any(String),
      detail: expect.any(String),
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    }),
  );
  expect(res.text).not.toMatch(/at .*\.(ts|js):\d+|select |insert into|stack/i);
}
