import {
  GraphQLNonNull,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  print,
  type GraphQLEnumType,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLScalarType,
  type SelectionSetNode,
} from 'graphql';
import { notNullFieldsOf } from '../family/required-fields';
import { fieldLimits, withLimits } from './input-limits';
import type { JsonSchema } from './json-schema-type';

export type { JsonSchema } from './json-schema-type';

/**
 * JSON forms of the GraphQL scalars this schema uses. An unknown scalar is documented as "any
 * JSON value" with its own description rather than guessed at.
 */
const SCALARS: Record<string, JsonSchema> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer', format: 'int32' },
  Float: { type: 'number', format: 'double' },
  Boolean: { type: 'boolean' },
  DateTimeISO: { type: 'string', format: 'date-time' },
  DateTime: { type: 'string', format: 'date-time' },
  LocalDate: { type: 'string', format: 'date' },
  Date: { type: 'string', format: 'date' },
  JSONObject: { type: 'object' },
  JSON: {},
};

export function scalarSchema(scalar: GraphQLScalarType): JsonSchema {
  const known = SCALARS[scalar.name];
  if (known) return { ...known };
  return { description: scalar.description ?? `GraphQL scalar ${scalar.name}` };
}

/**
 * Every `int32` value is read into or written from a GraphQL Int, a signed 32-bit integer that
 * graphql-js refuses to go beyond either way: the bounds the format implies, spelled out where a
 * schema does not state narrower ones, for tools that read only `minimum` and `maximum`.
 */
const INT32 = { minimum: -2147483648, maximum: 2147483647 };

export function withInt32Bounds<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withInt32Bounds) as T;
  if (!value || typeof value !== 'object') return value;
  const out = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withInt32Bounds(v)]));
  if (out.format !== 'int32') return out as T;
  const bounded = 'minimum' in out || 'exclusiveMinimum' in out ? {} : { minimum: INT32.minimum };
  return {
    ...out,
    ...bounded,
    ...('maximum' in out || 'exclusiveMaximum' in out ? {} : { maximum: INT32.maximum }),
  } as T;
}

/** `schema` or null: type lists where possible, so generated client types stay readable. */
export function orNull(schema: JsonSchema): JsonSchema {
  if (Object.keys(schema).length === 0 || (Object.keys(schema).length === 1 && 'description' in schema))
    return schema;
  if (typeof schema.type === 'string' && !('enum' in schema))
    return { ...schema, type: [schema.type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

/** Adds a description next to a schema; beside a $ref that is allowed in OpenAPI 3.1. */
function described(schema: JsonSchema, description: string | null | undefined): JsonSchema {
  return description ? { ...schema, description } : schema;
}

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/**
 * The `components.schemas` of the document, filled on demand so only what some operation uses
 * is emitted. Input types and enums map one to one. Output types are documented exactly as the
 * REST facade selects them (compile.ts generates the selection), so a type reached through
 * different selections (cycles, the depth limit) gets one component per distinct selection.
 */
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly selections = new Map<string, string[]>();

  /** Registers a schema of our own (Error, search bodies); its name must not clash with GraphQL's. */
  define(name: string, schema: JsonSchema): JsonSchema {
    if (this.schemas[name] && JSON.stringify(this.schemas[name]) !== JSON.stringify(schema))
      throw new Error(`OpenAPI component ${name} defined twice with different content`);
    this.schemas[name] = schema;
    return ref(name);
  }

  private enumRef(type: GraphQLEnumType): JsonSchema {
    if (!this.schemas[type.name]) {
      this.schemas[type.name] = described(
        { type: 'string', enum: type.getValues().map((v) => v.name) },
        type.description,
      );
    }
    return ref(type.name);
  }

  private namedInput(type: GraphQLNamedType): JsonSchema {
    if (isScalarType(type)) return scalarSchema(type);
    if (isEnumType(type)) return this.enumRef(type);
    if (isInputObjectType(type)) {
      if (!this.schemas[type.name]) {
        // Placeholder first, so recursive input types refer to themselves instead of looping.
        this.schemas[type.name] = {};
        const properties: Record<string, JsonSchema> = {};
        const required: string[] = [];
        // A field a record cannot hold as NULL may be left out, but null is refused (400).
        const notNull = notNullFieldsOf(type.name, Object.keys(type.getFields()));
        for (const field of Object.values(type.getFields())) {
          const fieldType =
            notNull.has(field.name) && !isNonNullType(field.type)
              ? new GraphQLNonNull(field.type)
              : field.type;
          let schema = withLimits(this.input(fieldType), fieldLimits(type.name, field.name));
          if (field.defaultValue !== undefined) schema = { ...schema, default: field.defaultValue };
          if (field.deprecationReason) schema = { ...schema, deprecated: true };
          properties[field.name] = described(schema, field.description);
          if (isNonNullType(field.type) && field.defaultValue === undefined) required.push(field.name);
        }
        this.schemas[type.name] = described(
          { type: 'object', properties, ...(required.length ? { required } : {}) },
          type.description,
        );
      }
      return ref(type.name);
    }
    throw new Error(`${type.name} is not an input type`);
  }

  /** JSON Schema of a GraphQL input type (a request body or a parameter). */
  input(type: GraphQLInputType): JsonSchema {
    if (isNonNullType(type)) return this.inputNonNull(type.ofType);
    return orNull(this.inputNonNull(type));
  }

  private inputNonNull(type: GraphQLInputType): JsonSchema {
    if (isNonNullType(type)) return this.inputNonNull(type.ofType);
    if (isListType(type)) return { type: 'array', items: this.input(type.ofType) };
    return this.namedInput(type);
  }

  /**
   * JSON Schema of a value of output type `type` as selected by `selection` (the REST
   * document's selection set for that value; absent for leaves).
   */
  output(type: GraphQLOutputType, selection: SelectionSetNode | undefined): JsonSchema {
    if (isNonNullType(type)) return this.outputNonNull(type.ofType, selection);
    return orNull(this.outputNonNull(type, selection));
  }

  private outputNonNull(type: GraphQLOutputType, selection: SelectionSetNode | undefined): JsonSchema {
    if (isNonNullType(type)) return this.outputNonNull(type.ofType, selection);
    if (isListType(type)) return { type: 'array', items: this.output(type.ofType, selection) };
    const named = getNamedType(type);
    if (isScalarType(named)) return scalarSchema(named);
    if (isEnumType(named)) return this.enumRef(named);
    if (isObjectType(named)) {
      if (!selection) throw new Error(`no selection for object type ${named.name}`);
      return ref(this.objectComponent(named, selection));
    }
    throw new Error(`REST responses of type ${named.name} cannot be documented`);
  }

  private objectComponent(type: GraphQLObjectType, selection: SelectionSetNode): string {
    const signature = print(selection);
    const known = this.selections.get(type.name) ?? [];
    let index = known.indexOf(signature);
    if (index < 0) {
      index = known.length;
      this.selections.set(type.name, [...known, signature]);
    }
    const name = index === 0 ? type.name : `${type.name}${index + 1}`;
    if (this.schemas[name]) return name;
    this.schemas[name] = {};
    const fields = type.getFields();
    const properties: Record<string, JsonSchema> = {};
    for (const node of selection.selections) {
      if (node.kind !== 'Field') throw new Error(`REST selections hold fields only (${type.name})`);
      const field = fields[node.name.value];
      const key = node.alias?.value ?? node.name.value;
      let schema = this.output(field.type, node.selectionSet);
      if (field.deprecationReason) schema = { ...schema, deprecated: true };
      properties[key] = described(schema, field.description);
    }
    // graphql-js puts every selected field in the answer (null when absent): all are present.
    this.schemas[name] = described(
      { type: 'object', properties, required: Object.keys(properties) },
      type.description,
    );
    return name;
  }
}
