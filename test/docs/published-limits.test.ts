import { randomUUID } from 'node:crypto';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import type { Response } from '../support/http';

/**
 * Every limit the OpenAPI document publishes is one the service keeps: requests that break one
 * constraint the document states (an id that is not a UUID, a page size beyond its maximum, a
 * string beyond its maxLength, a list beyond its maxItems, a number beyond its bounds) are
 * refused with a 4xx the operation documents, never served and never a 500. The constraints are
 * read from the document itself, so a limit published later is checked without a new test.
 */
type Schema = Record<string, any>;
type Operation = { responses: Record<string, unknown>; parameters?: Schema[]; requestBody?: Schema };
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

const NOT_A_UUID = 'not-a-uuid';

describe('the limits the OpenAPI document publishes are enforced', () => {
  let server: TestServer;
  let a: TestTenant;
  let doc: Doc;
  const operations: { method: string; path: string; op: Operation }[] = [];

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Limits');
    doc = (await a.client.get('/openapi.json')).body as Doc;
    for (const [path, byMethod] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(byMethod)) operations.push({ method, path, op });
  });
  afterAll(() => server.close());

  const resolve = (s: Schema | undefined): Schema => {
    if (!s) return {};
    if (s.$ref) return resolve(doc.components.schemas[String(s.$ref).split('/').pop()!]);
    if (s.anyOf) return resolve(s.anyOf.find((x: Schema) => x.type !== 'null'));
    return s;
  };
  const is = (s: Schema, type: string) => s.type === type || (Array.isArray(s.type) && s.type.includes(type));

  /** A well-typed value for a schema: what the document says a client may send. */
  const valueOf = (raw: Schema | undefined, name = ''): unknown => {
    const s = resolve(raw);
    if (s.default !== undefined) return s.default;
    if (s.enum) return s.enum[0];
    if (is(s, 'object')) {
      const out: Record<string, unknown> = {};
      for (const key of s.required ?? []) out[key] = valueOf(s.properties?.[key], key);
      return out;
    }
    if (is(s, 'array')) return Array.from({ length: s.minItems ?? 0 }, () => valueOf(s.items, name));
    if (is(s, 'integer') || is(s, 'number'))
      return Math.min(Math.max(s.minimum ?? 1, (s.exclusiveMinimum ?? 0) + 1), s.maximum ?? 1);
    if (is(s, 'boolean')) return true;
    if (s.format === 'uuid') return randomUUID();
    if (s.format === 'date-time') return '2026-11-22T10:15:00.000Z';
    if (s.format === 'date') return '2026-11-22';
    if (/email/i.test(name)) return 'nobody@example.test';
    return 'x'.repeat(Math.max(1, s.minLength ?? 1));
  };

  const fill = (path: string, values: Record<string, string> = {}) =>
    path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? randomUUID()));

  const requiredQuery = (op: Operation, except?: string) =>
    (op.parameters ?? [])
      .filter((p) => p.in === 'query' && p.required && p.name !== except)
      .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(valueOf(p.schema, p.name)))}`);

  /** Sends the request; a refusal of the exchange check (a served request the document refuses) is a finding. */
  const findings: string[] = [];
  const send = async (method: string, path: string, body?: unknown): Promise<Response | undefined> => {
    try {
      return await a.client.request(method.toUpperCase(), path, body);
    } catch (err) {
      findings.push((err as Error).message.slice(0, 300));
      return undefined;
    }
  };
  const refused = (res: Response | undefined, op: Operation, where: string, expected: number[]) => {
    if (!res) return;
    if (!expected.includes(res.status) || !op.responses[String(res.status)])
      findings.push(`${where}: expected ${expected.join(' or ')} (documented), got ${res.status}`);
  };
  const bodyOf = (op: Operation) =>
    op.requestBody?.content?.['application/json']?.schema as Schema | undefined;

  beforeEach(() => {
    findings.length = 0;
  });

  it('an id that is not a UUID, in a path that documents format uuid, is a 404 or a 400', async () => {
    let checked = 0;
    for (const { method, path, op } of operations) {
      const ids = (op.parameters ?? []).filter((p) => p.in === 'path' && resolve(p.schema).format === 'uuid');
      if (ids.length === 0) continue;
      const query = requiredQuery(op);
      const url = fill(path, { [ids[0].name]: NOT_A_UUID }) + (query.length ? `?${query.join('&')}` : '');
      const body = op.requestBody?.required ? valueOf(bodyOf(op)) : undefined;
      refused(await send(method, url, body), op, `${method.toUpperCase()} ${url}`, [400, 404]);
      checked++;
    }
    expect(checked).toBeGreaterThan(30);
    expect(findings).toEqual([]);
  });

  it('a query parameter beyond its minimum or maximum (page numbers and sizes) is a 400', async () => {
    let checked = 0;
    for (const { method, path, op } of operations) {
      // With a path id, a random one is unknown and answers 404 before the paging is looked at.
      if (method !== 'get' || path.includes('{')) continue;
      for (const p of op.parameters ?? []) {
        const s = resolve(p.schema);
        if (p.in !== 'query' || !is(s, 'integer')) continue;
        const wrong = [
          s.maximum !== undefined && s.maximum < 2147483647 ? s.maximum + 1 : undefined,
          s.minimum !== undefined && s.minimum > -2147483648 ? s.minimum - 1 : undefined,
        ].filter((v) => v !== undefined);
        for (const value of wrong) {
          const query = [...requiredQuery(op, p.name), `${p.name}=${value}`];
          const url = `${fill(path)}?${query.join('&')}`;
          refused(await send(method, url), op, `GET ${url}`, [400]);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(findings).toEqual([]);
  });

  /** Body properties with a limit, one request per limit, each breaking that limit only. */
  const bodyLimits = (keyword: string) =>
    operations.flatMap(({ method, path, op }) => {
      const schema = resolve(bodyOf(op));
      if (!is(schema, 'object') || method === 'get') return [];
      return Object.entries((schema.properties ?? {}) as Record<string, Schema>)
        .filter(([, p]) => resolve(p)[keyword] !== undefined || resolve(p.items)[keyword] !== undefined)
        .map(([field, p]) => ({ method, path, op, schema, field, property: p }));
    });

  it('a body string beyond its maxLength (or a list element beyond its own) is a 400 naming the field', async () => {
    const cases = bodyLimits('maxLength');
    expect(cases.length).toBeGreaterThan(20);
    for (const { method, path, op, schema, field, property } of cases) {
      const own = resolve(property);
      const long = (max: number) => 'x'.repeat(max + 1);
      const value = own.maxLength !== undefined ? long(own.maxLength) : [long(resolve(own.items).maxLength)];
      const body = { ...(valueOf(schema) as object), [field]: value };
      const where = `${method.toUpperCase()} ${path} ${field}`;
      // An id too long to be one is an unknown reference: 404 where the operation checks references so.
      const statuses =
        resolve(own.items ?? {}).format === 'uuid' || own.format === 'uuid' ? [400, 404] : [400];
      const res = await send(method, fill(path), body);
      refused(res, op, where, statuses);
      // A 400 is the constraint stage, which names every culprit; a 404 is a reference check,
      // which may name another unknown id of the sample body first.
      if (res?.status === 400 && !JSON.stringify(res.body.errors ?? []).includes(field))
        findings.push(`${where}: the 400 does not name ${field}: ${res.body.detail}`);
    }
    expect(findings).toEqual([]);
  });

  it('a body list beyond its maxItems is a 400', async () => {
    const cases = bodyLimits('maxItems');
    for (const { method, path, op, schema, field, property } of cases) {
      const own = resolve(property);
      if (own.maxItems === undefined) continue;
      const value = Array.from({ length: own.maxItems + 1 }, () => valueOf(own.items, field));
      const body = { ...(valueOf(schema) as object), [field]: value };
      refused(await send(method, fill(path), body), op, `${method.toUpperCase()} ${path} ${field}`, [400]);
    }
    expect(cases.length).toBeGreaterThan(3);
    expect(findings).toEqual([]);
  });

  it('a body number beyond its stated bounds is a 400', async () => {
    const cases = [...bodyLimits('maximum'), ...bodyLimits('minimum'), ...bodyLimits('exclusiveMinimum')];
    let checked = 0;
    for (const { method, path, op, schema, field, property } of cases) {
      const own = resolve(property);
      const wrong = [
        own.maximum !== undefined && own.maximum < 2147483647 ? own.maximum + 1 : undefined,
        own.minimum !== undefined && own.minimum > -2147483648 ? own.minimum - 1 : undefined,
        own.exclusiveMinimum !== undefined ? own.exclusiveMinimum : undefined,
      ].filter((v) => v !== undefined);
      for (const value of wrong) {
        const body = { ...(valueOf(schema) as object), [field]: value };
        refused(
          await send(method, fill(path), body),
          op,
          `${method.toUpperCase()} ${path} ${field}=${value}`,
          [400],
        );
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(5);
    expect(findings).toEqual([]);
  });

  it('a list of ids beyond MAX_IDS in a bulk delete body is a 400', async () => {
    const op = doc.paths['/concepts'].delete;
    const max = resolve(bodyOf(op)).maxItems as number;
    expect(max).toBe(1000);
    const res = await send(
      'delete',
      '/concepts',
      Array.from({ length: max + 1 }, () => randomUUID()),
    );
    refused(res, op, 'DELETE /concepts', [400]);
    expect(findings).toEqual([]);
  });
});
