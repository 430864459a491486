import path from 'node:path';
import express, { type Request, type Router } from 'express';
import { introspectionFromSchema, type GraphQLSchema } from 'graphql';
import { sendError } from '../http/send-error';

/**
 * The GraphQL IDE a browser gets at /graphql: GraphiQL, with every script and stylesheet served
 * by this service from node_modules, so it works with no network. GraphiQL 3 is used because it
 * ships a self-contained UMD bundle (its only externals are React and ReactDOM 18, whose UMD
 * builds are served beside it); GraphiQL 5 ships ES modules with bare imports and Monaco
 * workers that only a bundler or a CDN resolves. Apollo Sandbox, which loads from Apollo's CDN,
 * stays at `/graphql?ide=sandbox`.
 */
export const IDE_BASE = '/graphql/ide';

/** A file of an installed package (these packages export no subpaths). */
const packageFile = (pkg: string, file: string) =>
  path.join(path.dirname(require.resolve(`${pkg}/package.json`)), file);

const ASSETS: Record<string, { file: string; type: string }> = {
  'graphiql.min.js': { file: packageFile('graphiql', 'graphiql.min.js'), type: 'application/javascript' },
  'graphiql.min.css': { file: packageFile('graphiql', 'graphiql.min.css'), type: 'text/css' },
  'react.production.min.js': {
    file: packageFile('react', 'umd/react.production.min.js'),
    type: 'application/javascript',
  },
  'react-dom.production.min.js': {
    file: packageFile('react-dom', 'umd/react-dom.production.min.js'),
    type: 'application/javascript',
  },
};

/** What the headers pane holds until a token is entered; the page never sends it. */
export const TOKEN_PLACEHOLDER = 'Bearer <paste a token here>';

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // CodeMirror positions its editors with inline styles.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

// The shell inside #graphiql says what the page is before the scripts have run (a headless
// screenshot, a slow link) or when they cannot (no JavaScript); GraphiQL replaces it when it renders.
const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Business management service: GraphQL</title>
    <link rel="stylesheet" href="${IDE_BASE}/graphiql.min.css" />
    <style>
      body { margin: 0; height: 100vh; } #graphiql { height: 100vh; }
      .shell { max-width: 42rem; margin: 0 auto; padding: 2rem 1rem; font: 16px/1.5 system-ui, sans-serif; color: #1b2240; }
      .shell h1 { font-size: 1.5rem; margin: 0 0 0.5rem; } .shell code { font-size: 0.9em; }
    </style>
  </head>
  <body>
    <div id="graphiql">
      <main class="shell">
        <h1>GraphQL IDE</h1>
        <p>This page runs GraphiQL, an editor for this service's GraphQL API: it appears here once
          its scripts have loaded. Paste a token into the <code>Authorization</code> header in its
          Headers pane, then run a query.</p>
        <noscript><p>GraphiQL needs JavaScript. Without it, send a query with any HTTP client:
          <code>POST /graphql</code> with the JSON body <code>{"query": "{ me { email } }"}</code> and
          the header <code>Authorization: Bearer &lt;token&gt;</code>. The schema is in the
          repository's <code>schema.graphql</code>; the REST operations are described at
          <a href="/api/v1/docs">/api/v1/docs</a>.</p></noscript>
      </main>
    </div>
    <script src="${IDE_BASE}/react.production.min.js"></script>
    <script src="${IDE_BASE}/react-dom.production.min.js"></script>
    <script src="${IDE_BASE}/graphiql.min.js"></script>
    <script src="${IDE_BASE}/init.js"></script>
  </body>
</html>
`;

// Kept out of the page so the policy needs no 'unsafe-inline' for scripts. The headers pane is
// open and holds the Authorization header to fill in; until it is filled in, the placeholder is
// left out of requests (a bad credential is refused). The schema comes from schema.json, since
// GraphiQL's own introspection query nests deeper than the depth limit allows any operation.
const INIT = `(function () {
  var placeholder = ${JSON.stringify(TOKEN_PLACEHOLDER)};
  function withoutPlaceholder(url, init) {
    var headers = Object.assign({}, init && init.headers);
    Object.keys(headers).forEach(function (name) {
      if (name.toLowerCase() === 'authorization' && String(headers[name]).trim() === placeholder) delete headers[name];
    });
    return fetch(url, Object.assign({}, init, { headers: headers }));
  }
  var fetcher = GraphiQL.createFetcher({ url: '/graphql', fetch: withoutPlaceholder });
  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  fetch(${JSON.stringify(`${IDE_BASE}/schema.json`)})
    .then(function (r) { return r.json(); })
    .then(function (schema) {
      root.render(
        React.createElement(GraphiQL, {
          fetcher: fetcher,
          schema: schema,
          defaultEditorToolsVisibility: 'headers',
          defaultHeaders: JSON.stringify({ Authorization: placeholder }, null, 2),
          shouldPersistHeaders: true,
          defaultQuery: '# Fill in the Authorization header below, then run:\\n{\\n  me {\\n    email\\n    roles\\n  }\\n}\\n',
        }),
      );
    });
})();
`;

/** A browser's GET of /graphql itself (not an API call with a query): Apollo's own test. */
const wantsPage = (req: Request) =>
  req.path === '/' &&
  req.query.query === undefined &&
  req.accepts(['application/json', 'text/html']) === 'text/html';

/**
 * The IDE's page and files, for a browser GET of /graphql. `?ide=sandbox` passes the request on
 * to Apollo's landing page (Sandbox).
 */
export function ideRouter(schema: GraphQLSchema): Router {
  let introspection: string | undefined;
  const router = express.Router();
  router.get('/', (req, res, next) => {
    if (!wantsPage(req) || req.query.ide === 'sandbox') return next();
    res.locals.routePattern = '/graphql (IDE)';
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('Cache-Control', 'no-cache');
    res.vary('Accept');
    res.type('html').send(PAGE);
  });
  router.get('/ide/init.js', (_req, res) => {
    res.locals.routePattern = `${IDE_BASE}/init.js`;
    res.setHeader('Cache-Control', 'no-cache');
    res.type('application/javascript').send(INIT);
  });
  // What introspection answers anyone without a credential here, made once.
  router.get('/ide/schema.json', (_req, res) => {
    res.locals.routePattern = `${IDE_BASE}/schema.json`;
    res.setHeader('Cache-Control', 'no-cache');
    res.type('application/json').send((introspection ??= JSON.stringify(introspectionFromSchema(schema))));
  });
  router.get('/ide/:asset', (req, res) => {
    const asset = ASSETS[req.params.asset];
    if (!asset) return sendError(res, 404, `no such path: ${req.method} ${req.originalUrl}`);
    res.locals.routePattern = `${IDE_BASE}/${req.params.asset}`;
    res.type(asset.type);
    res.sendFile(asset.file, { maxAge: '1d' });
  });
  return router;
}
