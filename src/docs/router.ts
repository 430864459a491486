import { readFileSync } from 'node:fs';
import express from 'express';
import { docsGroups, type DocsGroup } from './groups';
import { API_BASE, type OpenApiDocument } from './openapi';
import { escapeHtml, operationsHtml, prose } from './operation-pages';

/**
 * The OpenAPI document and its human-readable pages, all public (they describe the interface,
 * not any tenant's data): an index of the groups and their operations and a page per group, in
 * plain HTML written on the first request for any of them and kept (they show at once; a process
 * that is never asked pays nothing at start-up), and per group an interactive view by
 * Redoc's standalone bundle served from node_modules. All work offline; their content security
 * policy keeps them from reaching any other origin. Redoc takes seconds per hundred operations
 * before it shows anything, hence the plain pages first and one group per Redoc view.
 */
const REDOC_BUNDLE = require.resolve('redoc/bundles/redoc.standalone.js');

// The bundle's one remote resource is the attribution logo; a blank local image keeps the page
// offline (and within its policy) while the "API docs by Redocly" link stays.
const REMOTE_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const BLANK_SVG = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E";
let bundle: string | undefined;
const redocBundle = () => (bundle ??= readFileSync(REDOC_BUNDLE, 'utf8').split(REMOTE_LOGO).join(BLANK_SVG));

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // Redoc styles itself with styled-components (inline <style>) and runs its search in a blob worker.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const STYLE = `body { margin: 0; padding: 0; font-family: sans-serif; }
  nav.groups { padding: 8px 16px; border-bottom: 1px solid #ddd; font-size: 14px; }
  main.index { max-width: 960px; margin: 0 auto; padding: 16px; }
  main.index h2 { margin: 24px 0 4px; font-size: 18px; }
  main.index ul { margin: 4px 0; padding-left: 20px; }
  main.index code { font-size: 13px; }
  main.group { max-width: 1100px; margin: 0 auto; padding: 16px; }
  main.group section.operation { border-top: 1px solid #ddd; padding-top: 8px; }
  main.group h3 { font-size: 15px; margin: 12px 0 4px; }
  main.group table { border-collapse: collapse; width: 100%; font-size: 13px; }
  main.group th, main.group td { border: 1px solid #e4e4e4; padding: 3px 6px; text-align: left; vertical-align: top; }
  main.group code.method { font-weight: bold; }`;

/** A group's operations (or the whole document) rendered by Redoc, with a way back to the index. */
const redocPage = (title: string, spec: string) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(title)}: Business management service REST API</title>
    <style>${STYLE}</style>
  </head>
  <body>
    <nav class="groups"><a href="${API_BASE}/docs">All groups</a> · ${escapeHtml(title)} ·
      <a href="${API_BASE}/openapi.json">openapi.json</a></nav>
    <div id="redoc" data-spec="${escapeHtml(spec)}"></div>
    <script src="${API_BASE}/docs/redoc.standalone.js"></script>
    <script src="${API_BASE}/docs/init.js"></script>
  </body>
</html>
`;

/** A group's operations and the schemas they use, as plain HTML; Redoc's view one link away. */
const groupPage = (group: DocsGroup) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(group.tag)}: Business management service REST API</title>
    <style>${STYLE}</style>
  </head>
  <body>
    <nav class="groups"><a href="${API_BASE}/docs">All groups</a> · ${escapeHtml(group.tag)} ·
      <a href="${API_BASE}/docs/${group.slug}/redoc">interactive view (Redoc)</a> ·
      <a href="${API_BASE}/docs/${group.slug}/openapi.json">this group's openapi.json</a></nav>
    <main class="group">
      <h1>${escapeHtml(group.tag)}</h1>
      <p>${prose(group.description)}</p>
      ${operationsHtml(group)}
    </main>
  </body>
</html>
`;

/** The index: every group and its operations, as plain HTML that shows at once. */
function indexPage(document: OpenApiDocument, groups: DocsGroup[]): string {
  const sections = groups.map(
    (g) => `<section>
      <h2><a href="${API_BASE}/docs/${g.slug}">${escapeHtml(g.tag)}</a></h2>
      <p>${prose(g.description)}</p>
      <ul>${g.operations
        .map(
          (o) =>
            `<li><a href="${API_BASE}/docs/${g.slug}#operation/${o.operationId}">${escapeHtml(o.summary)}</a> <code>${o.method} ${escapeHtml(o.path)}</code></li>`,
        )
        .join('')}</ul>
    </section>`,
  );
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Business management service: REST API</title>
    <style>${STYLE}</style>
  </head>
  <body>
    <main class="index">
      <h1>${escapeHtml(String(document.info.title))}: REST API</h1>
      <p>Each group's operations in full on its own page; the whole document as
        <a href="${API_BASE}/openapi.json">openapi.json</a> or <a href="${API_BASE}/docs/all">one page</a>
        (slow to render: ${Object.keys(document.paths).length} paths).</p>
      ${sections.join('\n')}
    </main>
  </body>
</html>
`;
}

// Kept out of the pages so the policy needs no 'unsafe-inline' for scripts.
const INIT = `(function () {
  var el = document.getElementById('redoc');
  Redoc.init(el.getAttribute('data-spec'), {
    expandResponses: '200,201',
    jsonSampleExpandLevel: 2,
    hideHostname: true,
    sortTagsAlphabetically: true,
  }, el);
})();
`;

/** The index and each group's pages, made once. */
interface Pages {
  index: string;
  groups: Map<string, GroupPages>;
}

interface GroupPages {
  json: string;
  html: string;
  redoc: string;
}

function pagesOf(document: OpenApiDocument): Pages {
  const groups = docsGroups(document);
  return {
    index: indexPage(document, groups),
    groups: new Map(
      groups.map((group) => [
        group.slug,
        {
          json: JSON.stringify(group.document),
          html: groupPage(group),
          redoc: redocPage(group.tag, `${API_BASE}/docs/${group.slug}/openapi.json`),
        },
      ]),
    ),
  };
}

/**
 * Mounts the document and its pages at their own paths under the API's base, not as a router at
 * the base: every API request would otherwise walk all of the pages' routes before the REST facade.
 * `document` is called once, on the first request for any of them; the pages are written on the
 * first request for one of them.
 */
export function mountDocs(app: express.Express, document: () => OpenApiDocument): void {
  let made: OpenApiDocument | undefined;
  let json: string | undefined;
  let pages: Pages | undefined;
  const documentOnce = () => (made ??= document());
  const jsonOnce = () => (json ??= JSON.stringify(documentOnce()));
  const pagesOnce = () => (pages ??= pagesOf(documentOnce()));
  // The route label of logs and metrics (src/http/request-log.ts).
  const route =
    (label: string): express.RequestHandler =>
    (_req, res, next) => {
      res.locals.routePattern = `${API_BASE}${label}`;
      next();
    };
  app.get(`${API_BASE}/openapi.json`, route('/openapi.json'), (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('application/json').send(jsonOnce());
  });
  const router = express.Router();
  const page = (res: express.Response, html: string) => {
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(html);
  };
  router.get('/', route('/docs'), (_req, res) => page(res, pagesOnce().index));
  router.get('/init.js', route('/docs/init.js'), (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('application/javascript').send(INIT);
  });
  router.get('/redoc.standalone.js', route('/docs/redoc.standalone.js'), (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.type('application/javascript').send(redocBundle());
  });
  router.get('/all', route('/docs/all'), (_req, res) =>
    page(res, redocPage('All groups', `${API_BASE}/openapi.json`)),
  );
  // A slug no group has falls through, as a path no route names does.
  const group: express.RequestHandler = (req, res, next) => {
    const found = pagesOnce().groups.get(String(req.params.group));
    if (!found) return next('route');
    res.locals.group = found;
    next();
  };
  const groupOf = (res: express.Response) => res.locals.group as GroupPages;
  router.get('/:group', group, route('/docs/{group}'), (_req, res) => page(res, groupOf(res).html));
  router.get('/:group/redoc', group, route('/docs/{group}/redoc'), (_req, res) =>
    page(res, groupOf(res).redoc),
  );
  router.get('/:group/openapi.json', group, route('/docs/{group}/openapi.json'), (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('application/json').send(groupOf(res).json);
  });
  app.use(`${API_BASE}/docs`, router);
}
