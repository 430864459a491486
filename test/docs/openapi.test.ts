import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  getNamedType,
  isObjectType,
  type FieldNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { compileRoutes } from '../../src/rest/compile';
import { searchFromBody, searchFromQuery } from '../../src/rest/search-params';
import { restTable } from '../../src/rest/table';
import { operationIdOf } from '../../src/docs/openapi';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { Client } from '../support/http';
import documentedOperations from './documented-operations.json';
import { check, resolve, responseSchema, type OpenApi, type Schema } from './schema-check';

const ERROR_STATUSES = ['400', '401', '403', '404', '429', '500', '503'];

describe('OpenAPI document at /api/v1/openapi.json', () => {
  let server: TestServer;
  let a: TestTenant;
  let doc: OpenApi & Record<string, any>;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('OpenAPI');
    const res = await new Client(server.baseUrl).get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    doc = res.body;
  });
  afterAll(() => server.close());

  const operation = (method: string, p: string) => doc.paths[p]?.[method.toLowerCase()];

  it('is OpenAPI 3.1 with bearer security, a server under /api/v1 and the Error schema', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toEqual(expect.objectContaining({ title: expect.any(String), version: 'v1' }));
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/api/v1' })]);
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.components.securitySchemes.bearerAuth).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    );
    expect(doc.components.schemas.Error).toEqual(
      expect.objectContaining({
        type: 'object',
        required: ['title', 'detail', 'time'],
        properties: expect.objectContaining({
          title: { type: 'string', description: expect.any(String) },
          detail: { type: 'string', description: expect.any(String) },
          time: { type: 'string', format: 'date-time', description: expect.any(String) },
          status: expect.objectContaining({ type: 'integer' }),
          requestId: expect.objectContaining({ type: 'string' }),
        }),
      }),
    );
  });

  it('describes every row of the REST table: method, path, status, GraphQL field, x-extension', () => {
    const ids = new Set<string>();
    for (const route of restTable) {
      const op = operation(route.method, route.path);
      expect({ route: `${route.method} ${route.path}`, described: Boolean(op) }).toEqual({
        route: `${route.method} ${route.path}`,
        described: true,
      });
      expect(op['x-graphql-field']).toBe(route.field);
      expect(op.summary).toEqual(expect.any(String));
      expect(op.tags).toHaveLength(1);
      expect(op.operationId).toMatch(/^[A-Za-z0-9]+$/);
      ids.add(op.operationId);
      if (route.extension) expect(op['x-extension']).toBe(true);
      else expect(op['x-extension']).toBeUndefined();
      const status = String(route.status ?? 200);
      const success = op.responses[status];
      expect(success).toBeDefined();
      expect(Object.keys(op.responses).filter((s) => s.startsWith('2'))).toEqual([status]);
      if (status === '204') expect(success.content).toBeUndefined();
      // A document (an e-invoice) is answered as itself, in one of its media types.
      else if (route.document) expect(Object.keys(success.content)).toEqual([...route.document.types]);
      else expect(success.content['application/json'].schema).toBeDefined();
      if (status === '201') expect(success.headers.Location).toBeDefined();
      for (const s of ERROR_STATUSES) expect(op.responses[s]).toBeDefined();
      if (op.requestBody) {
        expect(op.responses['413']).toBeDefined();
        expect(op.responses['415']).toBeDefined();
      }
    }
    expect(ids.size).toBe(restTable.length);
    // Every operation is a row, but the stored files' uploads and downloads and the export bundle's
    // download (transfer rows: src/http/transfer-route.ts), and the public front office's routes,
    // which take no credential (src/docs/openapi/public-routes.ts).
    const described = Object.entries(doc.paths).flatMap(([p, item]: [string, any]) =>
      Object.entries(item)
        .filter(([, op]: [string, any]) => !op['x-graphql-field'])
        .map(([method]) => `${method.toUpperCase()} ${p}`),
    );
    expect(described.sort()).toEqual([
      'GET /files/{id}',
      'GET /files/{id}/thumbnail',
      'GET /public/bookings/{slug}/slots',
      'GET /tenant-exports/{id}/bundle',
      'POST /file-uploads/{id}',
      'POST /files',
      'POST /public/bookings/cancel',
      'POST /public/bookings/{slug}',
      'POST /public/contact-forms/{slug}',
    ]);
    for (const path of Object.keys(doc.paths).filter((p) => p.startsWith('/public/')))
      for (const op of Object.values(doc.paths[path]) as { security: unknown[] }[])
        expect(op.security).toEqual([]);
    const total = Object.values(doc.paths).reduce((n: number, p: any) => n + Object.keys(p).length, 0);
    expect(total).toBe(restTable.length + described.length);
  });

  it('describes every operation of the specification that the REST table serves', async () => {
    const spec: { method: string; path: string }[] = documentedOperations;
    expect(spec).toHaveLength(200);
    const served = spec.filter((o) => restTable.some((r) => r.method === o.method && r.path === o.path));
    for (const o of served)
      expect(`${o.method} ${o.path}: ${Boolean(operation(o.method, o.path))}`).toBe(
        `${o.method} ${o.path}: true`,
      );
    const missing = spec.filter((o) => !served.includes(o)).map((o) => `${o.method} ${o.path}`);
    expect(missing).toEqual([]);
    // Rows the specification does not list must say so.
    for (const route of restTable) {
      const inSpec = spec.some((o) => o.method === route.method && o.path === route.path);
      if (!inSpec)
        expect(`${route.method} ${route.path}: ${operation(route.method, route.path)['x-extension']}`).toBe(
          `${route.method} ${route.path}: true`,
        );
    }
  });

  it('operation ids are stable: derived from method and path only', () => {
    expect(operationIdOf({ method: 'GET', path: '/concepts/find/{id}' })).toBe('getConceptsFindById');
    expect(operationIdOf({ method: 'DELETE', path: '/hr/features/delete-list' })).toBe(
      'deleteHrFeaturesDeleteList',
    );
    for (const route of restTable) {
      const id = operation(route.method, route.path).operationId;
      expect(id.startsWith(operationIdOf(route))).toBe(true);
    }
  });

  it('names every path parameter; search rows carry the S6 query or the S7 body', () => {
    for (const route of restTable) {
      const op = operation(route.method, route.path);
      const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const documented = (op.parameters ?? []).filter((p: any) => p.in === 'path');
      expect(documented.map((p: any) => p.name)).toEqual(pathParams);
      for (const p of documented) expect(p.required).toBe(true);
      const sources = Object.values(route.args ?? {});
      if (sources.some((s) => s.from === 'request' && s.read === searchFromQuery)) {
        const query = Object.fromEntries((op.parameters ?? []).map((p: any) => [p.name, p]));
        for (const name of ['search', 'filters', 'sort', 'page', 'size']) expect(query[name]).toBeDefined();
        expect(query.page.schema.default).toBe(0);
        expect(query.size.schema).toEqual(expect.objectContaining({ default: 20, maximum: 1000 }));
        expect(query.search.schema.type).toBe('array');
      }
      if (sources.some((s) => s.from === 'request' && s.read === searchFromBody)) {
        const body = op.requestBody.content['application/json'].schema;
        expect(body.$ref).toBe('#/components/schemas/DynamicSearchRequest');
        // A group's search lists the record's fields beside the shared body schema.
        if (body['x-search-fields']) expect(body.description).toMatch(/^Filterable and sortable fields: `/);
      }
    }
  });

  it('documents request bodies from the GraphQL input types (required fields, enums, boolean pairs)', () => {
    const create = operation('POST', '/concepts');
    expect(create.requestBody.required).toBe(true);
    const input = resolve(doc, create.requestBody.content['application/json'].schema);
    expect(input.type).toBe('object');
    expect(input.required).toContain('name');
    expect(input.properties.name).toEqual(expect.objectContaining({ type: 'string' }));
    const buildingType = resolve(
      doc,
      input.properties.buildingType.anyOf?.[0] ?? input.properties.buildingType,
    );
    expect(buildingType).toEqual(
      expect.objectContaining({ type: 'string', enum: expect.arrayContaining(['ROW']) }),
    );
    const bulk = operation('DELETE', '/concepts');
    expect(bulk.requestBody.content['application/json'].schema).toEqual({
      type: 'array',
      items: { type: 'string' },
      maxItems: 1000,
    });
    expect(bulk.responses['204'].content).toBeUndefined();
  });

  it('documents each response exactly as the REST selection: fields marked rest:false are left out', () => {
    const routes = compileRoutes(server.app.schema, restTable);
    const selectionPaths = (set: SelectionSetNode | undefined, prefix = ''): string[] =>
      (set?.selections ?? []).flatMap((n) => {
        const f = n as FieldNode;
        const here = `${prefix}${f.name.value}`;
        return [here, ...selectionPaths(f.selectionSet, `${here}.`)];
      });
    const schemaPaths = (schema: Schema | undefined, prefix = '', depth = 0): string[] => {
      if (!schema || depth > 40) return [];
      const s = resolve(doc, schema);
      const inner = s.anyOf ?? s.oneOf;
      if (inner) return inner.flatMap((x: Schema) => schemaPaths(x, prefix, depth + 1));
      if ([s.type].flat().includes('array')) return schemaPaths(s.items, prefix, depth + 1);
      return Object.entries(s.properties ?? {}).flatMap(([name, p]) => [
        `${prefix}${name}`,
        ...schemaPaths(p as Schema, `${prefix}${name}.`, depth + 1),
      ]);
    };
    let objectRoutes = 0;
    for (const { route, document } of routes) {
      const result = (document.definitions[0] as OperationDefinitionNode).selectionSet
        .selections[0] as FieldNode;
      const status = route.status ?? 200;
      // A document's bytes are answered, not the selection's JSON.
      if (status === 204 || route.document) continue;
      const documented = [
        ...new Set(schemaPaths(responseSchema(doc, route.path, route.method, status))),
      ].sort();
      expect({ route: `${route.method} ${route.path}`, paths: documented }).toEqual({
        route: `${route.method} ${route.path}`,
        paths: [...new Set(selectionPaths(result.selectionSet))].sort(),
      });
      const field =
        server.app.schema.getQueryType()?.getFields()[route.field] ??
        server.app.schema.getMutationType()?.getFields()[route.field];
      if (isObjectType(getNamedType(field!.type))) objectRoutes++;
    }
    expect(objectRoutes).toBeGreaterThan(0);
  });

  it('real responses conform to the documented schemas (create, find, page, errors)', async () => {
    const created = await a.client.post('/concepts', { name: 'Documented', buildingType: 'ROW' });
    expect(created.status).toBe(201);
    expect(check(doc, responseSchema(doc, '/concepts', 'POST', 201)!, created.body)).toEqual([]);
    const one = await a.client.get(`/concepts/find/${created.body.id}`);
    expect(check(doc, responseSchema(doc, '/concepts/find/{id}', 'GET', 200)!, one.body)).toEqual([]);
    const page = await a.client.get('/concepts/page?pageSize=5');
    expect(page.status).toBe(200);
    expect(check(doc, responseSchema(doc, '/concepts/page', 'GET', 200)!, page.body)).toEqual([]);
    const missing = await a.client.get('/concepts/find/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(check(doc, responseSchema(doc, '/concepts/find/{id}', 'GET', 404)!, missing.body)).toEqual([]);
    expect(missing.body.requestId).toBe(missing.headers.get('x-request-id'));
    // The checker itself notices a wrong body.
    expect(
      check(doc, responseSchema(doc, '/concepts', 'POST', 201)!, { ...created.body, name: 5 }),
    ).not.toEqual([]);
  });

  it('is public, needs no credential, and is the same document on every request', async () => {
    const anonymous = new Client(server.baseUrl);
    const again = await anonymous.get('/openapi.json');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(doc);
    expect(again.headers.get('x-request-id')).toEqual(expect.any(String));
  });

  it('passes `redocly lint` (recommended rules) with no errors', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'openapi-'));
    try {
      const file = path.join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(doc));
      const bin = path.resolve(__dirname, '../../node_modules/.bin/redocly');
      const config = path.resolve(__dirname, '../../redocly.yaml');
      const result = await promisify(execFile)(bin, ['lint', '--config', config, '--format', 'json', file], {
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        maxBuffer: 32 * 1024 * 1024,
      }).catch((err: { stdout?: string; stderr?: string; code?: number }) => err);
      const report = JSON.parse(String(result.stdout));
      const errors = (report.problems ?? []).filter((p: { severity: string }) => p.severity === 'error');
      expect(errors.map((p: { ruleId: string; message: string }) => `${p.ruleId}: ${p.message}`)).toEqual([]);
      expect((result as { code?: number }).code ?? 0).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
