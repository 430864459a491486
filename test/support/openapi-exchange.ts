import addFormats from 'ajv-formats';
import OpenAPIBackend, {
  OpenAPIValidator,
  SetMatchType,
  type Document,
  type Operation,
} from 'openapi-backend';

/**
 * Every HTTP exchange a test makes under /api/v1 is held to the published OpenAPI document, with
 * openapi-backend's validators (Ajv): a request the document accepts must get a documented status
 * whose body, content type and headers match; a request it does not accept (a deliberately bad
 * one, or an unknown path) must be refused with a documented 4xx in the documented error body.
 * A mismatch throws, which fails the test that made the request.
 */
export interface Exchange {
  method: string;
  path: string;
  query: string;
  requestHeaders: Record<string, string>;
  requestBody: unknown;
  status: number;
  headers: Headers;
  body: unknown;
}

const documents = new Map<string, Promise<OpenAPIBackend>>();

type Ajv = Parameters<NonNullable<ConstructorParameters<typeof OpenAPIBackend>[0]['customizeAjv']>>[0];
type Validate = ReturnType<Ajv['compile']>;

// openapi-backend compiles a validator for every status of every operation it checks (and two
// for each one's headers), though most are the same schema: the error body under every 4xx of
// every operation, the same rate-limit headers. Each distinct schema is compiled once per Ajv.
const library = OpenAPIValidator as unknown as {
  compileSchema(ajv: Ajv, schema: object): Validate;
  decycle(schema: object): object;
};
const compiledSchemas = new WeakMap<Ajv, Map<string, Validate>>();
library.compileSchema = (ajv, schema) => {
  const decycled = library.decycle(schema);
  const key = JSON.stringify(decycled);
  let known = compiledSchemas.get(ajv);
  if (!known) compiledSchemas.set(ajv, (known = new Map()));
  let validate = known.get(key);
  if (!validate) known.set(key, (validate = ajv.compile(decycled)));
  return validate;
};

/**
 * The validators of a document, kept by its text for the jest worker's later files: each file
 * starts its own server, nearly always with the same document, and building the validators was
 * most of the check's cost. The package is loaded once per worker (test/support/realm-runner.js),
 * so a backend made for an earlier file serves a later one; a few documents are kept at most.
 */
const KEPT = Symbol.for('bms.openapi-exchange.backends');
const KEEP = 3;
const kept: Map<string, Promise<OpenAPIBackend>> = ((globalThis as Record<symbol, unknown>)[KEPT] ??=
  new Map()) as never;

function backendOf(text: string): Promise<OpenAPIBackend> {
  let api = kept.get(text);
  if (api) {
    kept.delete(text);
    kept.set(text, api);
    return api;
  }
  api = buildBackend(JSON.parse(text) as Document);
  kept.set(text, api);
  if (kept.size > KEEP) kept.delete(kept.keys().next().value!);
  return api;
}

async function buildBackend(definition: Document): Promise<OpenAPIBackend> {
  // openapi-backend makes a new Ajv for every validator it builds, each compiling Ajv's meta
  // schema again, and lists every operation of the document anew for every match: most of a
  // test run's CPU went there. One Ajv per kind of validator, and the list made once, check
  // the same things.
  const ajvs = new Map<string, Ajv>();
  const backend = new OpenAPIBackend({
    definition,
    apiRoot: '/api/v1',
    quick: true,
    validate: true,
    customizeAjv: (fresh, options, context) => {
      const key = `${context}:${Boolean(options.coerceTypes)}`;
      let ajv = ajvs.get(key);
      if (!ajv) {
        ajv = fresh;
        addFormats(ajv as never);
        ajvs.set(key, ajv);
      }
      return ajv;
    },
  });
  await backend.init();
  const operations = backend.router.getOperations();
  backend.router.getOperations = () => operations;
  matchWithCompiledTemplates(backend.router, operations);
  return backend;
}

export function loadDocument(baseUrl: string): Promise<OpenAPIBackend> {
  let api = documents.get(baseUrl);
  if (!api) {
    api = (async () => {
      const res = await fetch(`${baseUrl}/api/v1/openapi.json`);
      return backendOf(await res.text());
    })();
    documents.set(baseUrl, api);
  }
  return api;
}

type Router = OpenAPIBackend['router'];

/**
 * openapi-backend's router matches a path by building a regular expression from every
 * operation's path template anew for every request. The same rules with each template's
 * expression built once: an exact path first; else the templates the path matches, the most
 * specific (the longest once parameters are left out) first, the first with the request's method.
 */
function matchWithCompiledTemplates(router: Router, operations: Operation[]): void {
  const templates = operations
    .map((operation) => ({
      operation,
      pattern: new RegExp(
        `^${operation.path
          .replace(/\{[^}]+\}/g, '\0')
          .split('\0')
          .map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^/]+')}$`,
      ),
      specificity: operation.path.replace(/\{.*?\}/g, '').length,
    }))
    // A stable sort, as the library's ordering is.
    .sort((a, b) => b.specificity - a.specificity);
  router.matchOperation = ((req: Parameters<Router['matchOperation']>[0], strict?: boolean) => {
    const request = router.normalizeRequest(req);
    const refuse = (message: string) => {
      if (strict) throw Error(message);
      return undefined;
    };
    if (!(router as unknown as { isUnderApiRoot(path: string): boolean }).isUnderApiRoot(request.path))
      return refuse('404-notFound: no route matches request');
    const path = router.normalizePath(request.path);
    const exact = operations.find((o) => o.path === path && o.method === request.method);
    if (exact) return exact;
    const matching = templates.filter((t) => t.pattern.test(path));
    if (!matching.length) return refuse('404-notFound: no route matches request');
    return (
      matching.find((t) => t.operation.method === request.method)?.operation ??
      refuse('405-methodNotAllowed: this method is not registered for the route')
    );
  }) as Router['matchOperation'];
}

/** A stopped server's address is forgotten; its document's validators stay kept (above). */
export function forgetDocument(baseUrl: string): void {
  documents.delete(baseUrl);
}

/** Paths under /api/v1 that serve the document itself rather than an operation of it. */
const OWN = /^\/api\/v1\/(openapi\.json|docs)(\/|$|\?)/;

export async function checkExchange(baseUrl: string, x: Exchange): Promise<void> {
  if (!x.path.startsWith('/api/v1/') || OWN.test(x.path)) return;
  const api = await loadDocument(baseUrl);
  const request = {
    method: x.method.toLowerCase(),
    path: x.path,
    query: x.query,
    headers: x.requestHeaders,
    body: x.requestBody,
  };
  const where = `${x.method} ${x.path}${x.query ? `?${x.query}` : ''} -> ${x.status}`;
  const operation = api.matchOperation(request as never);
  if (!operation) {
    // No documented operation has this path and method: only "not found" may answer.
    if (x.status !== 404 && x.status !== 405)
      throw new Error(`${where}: an undocumented path answered ${x.status}`);
    checkError(api, where, x);
    return;
  }
  const requestResult = api.validateRequest(request as never, operation);
  const documented = responseFor(operation, x.status);
  if (!documented)
    throw new Error(`${where}: status ${x.status} is not documented for ${operation.operationId}`);
  if (!requestResult.valid && (x.status < 400 || x.status >= 500) && x.status !== 401 && x.status !== 429)
    throw new Error(
      `${where}: the document refuses this request (${describe(requestResult.errors)}), the service answered ${x.status}`,
    );
  const type = x.headers.get('content-type')?.split(';')[0];
  const content = (documented as { content?: Record<string, unknown> }).content;
  if (content && x.status !== 204) {
    if (!type || !content[type])
      throw new Error(
        `${where}: content type ${type} is not documented (${Object.keys(content).join(', ')})`,
      );
    if (type === 'application/json') {
      const result = api.validateResponse(x.body, operation, x.status);
      if (!result.valid)
        throw new Error(`${where}: the body does not match the document: ${describe(result.errors)}`);
    }
  }
  // Documented headers that are present must match their schema; those marked required must be
  // present (openapi-backend's "superset" would require every documented header).
  const headers = Object.fromEntries(x.headers.entries());
  const headerResult = api.validateResponseHeaders(headers, operation, {
    statusCode: x.status,
    setMatchType: SetMatchType.Any,
  });
  if (!headerResult.valid)
    throw new Error(`${where}: headers do not match the document: ${describe(headerResult.errors)}`);
  const declared = ((documented as { headers?: Record<string, { required?: boolean }> }).headers ??
    {}) as Record<string, { required?: boolean }>;
  const missing = Object.entries(declared)
    .filter(([name, h]) => h.required && !x.headers.has(name))
    .map(([name]) => name);
  if (missing.length) throw new Error(`${where}: required headers missing: ${missing.join(', ')}`);
}

function responseFor(operation: Operation, status: number) {
  const responses = (operation.responses ?? {}) as Record<string, unknown>;
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
}

function checkError(api: OpenAPIBackend, where: string, x: Exchange): void {
  const schema = (api.document as any).components?.schemas?.Error;
  const body = x.body as Record<string, unknown> | undefined;
  const required: string[] = schema?.required ?? ['title', 'detail', 'time'];
  if (!body || typeof body !== 'object' || required.some((k) => typeof body[k] !== 'string'))
    throw new Error(`${where}: not the documented error body: ${JSON.stringify(x.body)}`);
}

function describe(errors: unknown): string {
  return JSON.stringify(errors ?? []).slice(0, 800);
}
