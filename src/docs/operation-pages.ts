import type { DocsGroup } from './groups';

/**
 * A group's operations as plain HTML, written on the server once at start-up: readable the
 * moment the page arrives, with no script to load. Redoc (the interactive view) needs seconds of
 * a slow machine's CPU before it shows the first operation; this page is what a reader opens
 * first, and links to it.
 */

type Json = Record<string, unknown>;

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Descriptions are Markdown; their code spans are what matter on this page. */
export const prose = (text: unknown) => escapeHtml(String(text)).replace(/`([^`]+)`/g, '<code>$1</code>');

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The component a `$ref` names, and the name. */
function deref(document: Json, value: unknown): { name?: string; value: Json } {
  const ref = (value as Json | undefined)?.$ref;
  if (typeof ref !== 'string') return { value: (value ?? {}) as Json };
  const [, , kind, name] = ref.split('/');
  const components = document.components as Record<string, Record<string, Json>>;
  return { name: kind === 'schemas' ? name : undefined, value: components[kind]?.[name] ?? {} };
}

/** Renders schemas as field tables; remembers every named schema it links to. */
class SchemaWriter {
  readonly linked = new Set<string>();
  constructor(private readonly document: Json) {}

  /** A schema's type in a few words, named schemas as links to their table. */
  type(schema: Json | undefined): string {
    if (!schema) return 'any';
    if (typeof schema.$ref === 'string') {
      const name = schema.$ref.split('/').pop()!;
      this.linked.add(name);
      return `<a href="#schema-${escapeHtml(name)}">${escapeHtml(name)}</a>`;
    }
    for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
      const parts = schema[key] as Json[] | undefined;
      if (parts?.length) return parts.map((p) => this.type(p)).join(key === 'allOf' ? ' and ' : ' | ');
    }
    const types = ([] as unknown[]).concat(schema.type ?? (schema.properties ? 'object' : 'any')) as string[];
    const label = types
      .filter((t) => t !== 'null')
      .map((t) => {
        if (t === 'array') return `array of ${this.type(schema.items as Json | undefined)}`;
        return schema.format ? `${escapeHtml(t)} (${escapeHtml(String(schema.format))})` : escapeHtml(t);
      })
      .join(' | ');
    const nullable = types.includes('null') || schema.nullable === true;
    return (label || 'any') + (nullable ? ' or null' : '');
  }

  /** Limits and allowed values, as the document states them. */
  private facts(schema: Json): string {
    const facts: string[] = [];
    if (Array.isArray(schema.enum))
      facts.push(`one of ${schema.enum.map((v) => `<code>${escapeHtml(String(v))}</code>`).join(', ')}`);
    const limits: [string, string][] = [
      ['minLength', 'at least %s characters'],
      ['maxLength', 'at most %s characters'],
      ['minimum', 'at least %s'],
      ['maximum', 'at most %s'],
      ['minItems', 'at least %s items'],
      ['maxItems', 'at most %s items'],
      ['pattern', 'matches <code>%s</code>'],
      ['default', 'default <code>%s</code>'],
    ];
    for (const [key, text] of limits)
      if (schema[key] !== undefined) facts.push(text.replace('%s', escapeHtml(JSON.stringify(schema[key]))));
    return facts.length ? ` <small>(${facts.join('; ')})</small>` : '';
  }

  /** An object's fields as a table, nested objects inside their row; anything else as its type. */
  fields(input: Json | undefined): string {
    if (!input) return '';
    const schema = (input.allOf as Json[] | undefined)?.length === 1 ? (input.allOf as Json[])[0] : input;
    const properties = schema.properties as Record<string, Json> | undefined;
    if (!properties) {
      const items = schema.type === 'array' ? (schema.items as Json | undefined) : undefined;
      if (items?.properties) return `<p>An array of:</p>${this.fields(items)}`;
      return `<p>${this.type(schema)}${this.facts(schema)}</p>`;
    }
    const required = new Set((schema.required as string[] | undefined) ?? []);
    const rows = Object.entries(properties).map(([name, field]) => {
      const nested = field.properties || (field.items as Json | undefined)?.properties;
      const description = field.description ? prose(field.description) : '';
      return `<tr><td><code>${escapeHtml(name)}</code>${required.has(name) ? ' <b>required</b>' : ''}</td>
        <td>${this.type(field)}</td><td>${description}${this.facts(field)}${nested ? this.fields(field) : ''}</td></tr>`;
    });
    return `<table><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
  }
}

function operationHtml(writer: SchemaWriter, document: Json, path: string, method: string, op: Json): string {
  const parameters = ((op.parameters as unknown[] | undefined) ?? []).map((p) => deref(document, p).value);
  const parameterRows = parameters.map(
    (p) => `<tr><td><code>${escapeHtml(String(p.name))}</code>${p.required ? ' <b>required</b>' : ''}</td>
      <td>${escapeHtml(String(p.in))}</td><td>${writer.type(p.schema as Json | undefined)}</td>
      <td>${p.description ? prose(p.description) : ''}</td></tr>`,
  );
  const body = deref(document, op.requestBody).value;
  const bodyContent = Object.entries((body.content as Record<string, Json> | undefined) ?? {});
  const responses = Object.entries((op.responses as Record<string, unknown>) ?? {}).map(([status, value]) => {
    const response = deref(document, value).value;
    const content = Object.entries((response.content as Record<string, Json> | undefined) ?? {});
    return `<li><b>${escapeHtml(status)}</b> ${prose(response.description ?? '')}
      ${content.map(([type, c]) => `<div><small>${escapeHtml(type)}</small>${writer.fields(c.schema as Json)}</div>`).join('')}</li>`;
  });
  const id = `operation/${String(op.operationId)}`;
  return `<section class="operation" id="${escapeHtml(id)}">
    <h2>${escapeHtml(String(op.summary ?? op.operationId))}</h2>
    <p><code class="method">${method.toUpperCase()}</code> <code>${escapeHtml(path)}</code></p>
    ${op.description ? `<p>${prose(op.description)}</p>` : ''}
    ${parameterRows.length ? `<h3>Parameters</h3><table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Description</th></tr></thead><tbody>${parameterRows.join('')}</tbody></table>` : ''}
    ${bodyContent.length ? `<h3>Request body${body.required ? ' (required)' : ''}</h3>${bodyContent.map(([type, c]) => `<div><small>${escapeHtml(type)}</small>${writer.fields(c.schema as Json)}</div>`).join('')}` : ''}
    <h3>Responses</h3><ul>${responses.join('')}</ul>
  </section>`;
}

/** The body of a group's page: its operations, then every schema they name, each once. */
export function operationsHtml(group: DocsGroup): string {
  const document = group.document as unknown as Json;
  const writer = new SchemaWriter(document);
  const operations: string[] = [];
  for (const [path, byMethod] of Object.entries(document.paths as Record<string, Record<string, Json>>))
    for (const method of METHODS)
      if (byMethod[method]) operations.push(operationHtml(writer, document, path, method, byMethod[method]));
  const schemas = (document.components as { schemas: Record<string, Json> }).schemas;
  const written = new Set<string>();
  const sections: string[] = [];
  // Writing a schema can link to more; go on until every linked one is written.
  for (
    let pending = [...writer.linked];
    pending.length;
    pending = [...writer.linked].filter((n) => !written.has(n))
  )
    for (const name of pending.sort()) {
      written.add(name);
      const schema = schemas[name];
      if (!schema) continue;
      sections.push(`<section class="schema" id="schema-${escapeHtml(name)}"><h3>${escapeHtml(name)}</h3>
        ${schema.description ? `<p>${prose(schema.description)}</p>` : ''}${writer.fields(schema)}</section>`);
    }
  return `${operations.join('\n')}${sections.length ? `<h2 class="schemas">Schemas</h2>${sections.join('\n')}` : ''}`;
}
