import { readFileSync } from 'node:fs';
import express, { type Router } from 'express';
import { API_BASE, type OpenApiDocument } from './openapi';

/**
 * The OpenAPI document and its human-readable page, both public (they describe the interface,
 * not any tenant's data). The page is Redoc's standalone bundle served from node_modules, so it
 * works offline; its content security policy keeps it from reaching any other origin.
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

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Business management service: REST API</title>
    <style>body { margin: 0; padding: 0; }</style>
  </head>
  <body>
    <div id="redoc"></div>
    <script src="${API_BASE}/docs/redoc.standalone.js"></script>
    <script src="${API_BASE}/docs/init.js"></script>
  </body>
</html>
`;

// Kept out of the page so the policy needs no 'unsafe-inline' for scripts.
const INIT = `Redoc.init(${JSON.stringify(`${API_BASE}/openapi.json`)}, {
  expandResponses: '200,201',
  jsonSampleExpandLevel: 2,
  hideHostname: true,
  sortTagsAlphabetically: true,
}, document.getElementById('redoc'));
`;

export function docsRouter(document: OpenApiDocument): Router {
  const json = JSON.stringify(document);
  const router = express.Router();
  // The route label of logs and metrics (src/observability/request-log.ts).
  const route =
    (label: string): express.RequestHandler =>
    (_req, res, next) => {
      res.locals.routePattern = `${API_BASE}${label}`;
      next();
    };
  router.get('/openapi.json', route('/openapi.json'), (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('application/json').send(json);
  });
  router.get('/docs', route('/docs'), (_req, res) => {
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(PAGE);
  });
  router.get('/docs/init.js', route('/docs/init.js'), (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('application/javascript').send(INIT);
  });
  router.get('/docs/redoc.standalone.js', route('/docs/redoc.standalone.js'), (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.type('application/javascript').send(redocBundle());
  });
  return router;
}
