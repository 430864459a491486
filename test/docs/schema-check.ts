/**
 * A small checker of values against the JSON Schemas of the generated OpenAPI document: just
 * the keywords the generator emits ($ref, type, enum, properties, required, items, anyOf,
 * oneOf, additionalProperties, format date/date-time), so tests can hold real responses against
 * the document without another dependency.
 */
export type Schema = { [key: string]: any };
export type OpenApi = {
  components: { schemas: Record<string, Schema> } & Record<string, any>;
  paths: Record<string, any>;
};

const DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
const DATE = /^\d{4}-\d\d-\d\d$/;

export function resolve(doc: OpenApi, schema: Schema): Schema {
  let s = schema;
  while (s.$ref) {
    const name = String(s.$ref).replace('#/components/schemas/', '');
    const target = doc.components.schemas[name];
    if (!target) throw new Error(`unresolved ${s.$ref}`);
    const { $ref: _ref, ...rest } = s;
    s = { ...target, ...rest };
  }
  return s;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Every way `value` breaks `schema`, with the JSON path of each; [] when it conforms. */
export function check(doc: OpenApi, schema: Schema, value: unknown, at = '$'): string[] {
  const s = resolve(doc, schema);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) {
    const results = (alternatives as Schema[]).map((alt) => check(doc, alt, value, at));
    if (!results.some((r) => r.length === 0))
      return [`${at}: matches none of anyOf/oneOf (${results.flat()[0]})`];
  }
  if (s.type !== undefined) {
    const types: string[] = Array.isArray(s.type) ? s.type : [s.type];
    const actual = typeOf(value);
    const ok = types.includes(actual) || (actual === 'integer' && types.includes('number'));
    if (!ok) return [`${at}: expected ${types.join('|')}, got ${actual}`];
  }
  if (s.enum && !(s.enum as unknown[]).includes(value))
    return [`${at}: ${JSON.stringify(value)} not in enum`];
  const errors: string[] = [];
  if (typeof value === 'string' && s.format === 'date-time' && !DATE_TIME.test(value))
    errors.push(`${at}: not a date-time: ${value}`);
  if (typeof value === 'string' && s.format === 'date' && !DATE.test(value))
    errors.push(`${at}: not a date: ${value}`);
  if (Array.isArray(value) && s.items) {
    value.forEach((item, i) => errors.push(...check(doc, s.items, item, `${at}[${i}]`)));
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    for (const name of (s.required as string[] | undefined) ?? []) {
      if (!(name in record)) errors.push(`${at}.${name}: required but absent`);
    }
    for (const [name, v] of Object.entries(record)) {
      const property = s.properties?.[name];
      if (property) errors.push(...check(doc, property, v, `${at}.${name}`));
      else if (s.additionalProperties && typeof s.additionalProperties === 'object')
        errors.push(...check(doc, s.additionalProperties, v, `${at}.${name}`));
      else if (s.properties && s.additionalProperties !== true)
        errors.push(`${at}.${name}: not in the documented schema`);
    }
  }
  return errors;
}

/** The documented response schema of an operation for a status, or undefined when it has no body. */
export function responseSchema(
  doc: OpenApi,
  path: string,
  method: string,
  status: number,
): Schema | undefined {
  let response = doc.paths[path]?.[method.toLowerCase()]?.responses?.[String(status)];
  if (!response) throw new Error(`${method} ${path} documents no ${status} response`);
  if (response.$ref) {
    const name = String(response.$ref).replace('#/components/responses/', '');
    response = (doc as any).components.responses[name];
  }
  return response.content?.['application/json']?.schema;
}
