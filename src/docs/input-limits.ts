import { getNamedType, isListType, isNonNullType, type GraphQLInputType } from 'graphql';
import { getMetadataStorage as validationStorage, type MetadataStorage } from 'class-validator';
import { getMetadataStorage as graphqlStorage } from 'type-graphql';
import { ARGUMENT_LIMITS, LENIENT_ID_LISTS, PAGED_INPUTS, type NumberLimits } from '../limits';
import type { JsonSchema } from './json-schema-type';

/**
 * The limits the service enforces on an input, as JSON Schema keywords, read from where they are
 * enforced: the class-validator decorators of the input classes (the arguments are validated with
 * them, src/app-schema.ts) and the paging and id-list checks of src/limits.ts. Nothing
 * is restated here, so the document cannot promise a limit the service does not keep.
 */
export interface Limits {
  /** Keywords of the value itself. */
  self: JsonSchema;
  /** Keywords of each element, for a list (`{ each: true }` decorators). */
  items: JsonSchema;
  /** The elements may be any text: the id form their type implies is not enforced. */
  anyItems?: boolean;
}

type ValidationMetadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];

const NONE: Limits = { self: {}, items: {} };

/** class-validator's decorator names and the JSON Schema keywords they mean. */
const KEYWORDS: Record<string, (constraints: unknown[]) => JsonSchema> = {
  maxLength: ([max]) => ({ maxLength: max }),
  minLength: ([min]) => ({ minLength: min }),
  isLength: ([min, max]) => ({
    ...(typeof min === 'number' && min > 0 ? { minLength: min } : {}),
    ...(typeof max === 'number' ? { maxLength: max } : {}),
  }),
  min: ([min]) => ({ minimum: min }),
  max: ([max]) => ({ maximum: max }),
  isPositive: () => ({ exclusiveMinimum: 0 }),
  arrayMaxSize: ([max]) => ({ maxItems: max }),
  arrayMinSize: ([min]) => ({ minItems: min }),
  isUuid: () => ({ format: 'uuid' }),
  matches: ([pattern]) => (pattern instanceof RegExp ? { pattern: pattern.source } : {}),
};

let byType: Map<string, Map<string, Limits>> | undefined;

/** Input type name -> GraphQL field name -> limits, built once from both metadata stores. */
function limitsByType(): Map<string, Map<string, Limits>> {
  if (byType) return byType;
  byType = new Map();
  const graphql = graphqlStorage();
  const validation = validationStorage();
  for (const input of graphql.inputTypes) {
    const metas = validation.getTargetValidationMetadatas(input.target, '', true, false);
    const fields = new Map<string, Limits>();
    const byProperty = new Map<string, ValidationMetadata[]>();
    for (const m of metas) byProperty.set(m.propertyName, [...(byProperty.get(m.propertyName) ?? []), m]);
    for (const [property, list] of byProperty) {
      // A conditional rule (ValidateIf) may not apply to every value: the document states only
      // what always holds. IsOptional only lets null and absence through, which the type says.
      if (list.some((m) => m.type === 'conditionalValidation' && m.name !== 'isOptional')) continue;
      const limits: Limits = { self: {}, items: {} };
      for (const m of list) {
        const keywords = m.name ? KEYWORDS[m.name]?.(m.constraints ?? []) : undefined;
        if (keywords) Object.assign(m.each ? limits.items : limits.self, keywords);
      }
      const field = graphql.fields.find(
        (f) =>
          f.name === property && (f.target === input.target || input.target.prototype instanceof f.target),
      );
      fields.set(field?.schemaName ?? property, limits);
    }
    byType.set(input.name, fields);
  }
  return byType;
}

/** The limits of field `field` of input type `typeName`. */
export function fieldLimits(typeName: string, field: string): Limits {
  const declared = limitsByType().get(typeName)?.get(field);
  if (declared) return declared;
  return PAGED_INPUTS.includes(typeName) && (field === 'page' || field === 'size')
    ? { self: { ...ARGUMENT_LIMITS[field] }, items: {} }
    : NONE;
}

/**
 * Every id argument the service takes is a UUID (isUuid, src/limits.ts): a malformed one
 * names no record, and is refused as unknown (a 404, or a 400 for a body field).
 */
const ID_FORM: JsonSchema = { format: 'uuid', maxLength: 36 };

/**
 * The limits of a root field's argument by its name and type: page numbers, page sizes, id
 * lists, and the UUID form of an id.
 */
export function argumentLimits(name: string, type: GraphQLInputType): Limits {
  const inner = isNonNullType(type) ? type.ofType : type;
  const id = getNamedType(inner).name === 'ID';
  const own: NumberLimits = ARGUMENT_LIMITS[name] ?? {};
  return {
    self: { ...own, ...(id && !isListType(inner) ? ID_FORM : {}) },
    items: id && isListType(inner) ? ID_FORM : {},
    ...(LENIENT_ID_LISTS.includes(name) ? { anyItems: true } : {}),
  };
}

const typeOf = (schema: JsonSchema): string[] =>
  Array.isArray(schema.type)
    ? (schema.type as string[])
    : typeof schema.type === 'string'
      ? [schema.type]
      : [];

/** Keywords that constrain a value of one JSON type, so they are only added to a schema of that type. */
const APPLIES_TO: Record<string, string[]> = {
  maxLength: ['string'],
  minLength: ['string'],
  format: ['string'],
  minimum: ['integer', 'number'],
  maximum: ['integer', 'number'],
  exclusiveMinimum: ['integer', 'number'],
  maxItems: ['array'],
  minItems: ['array'],
};

function merge(schema: JsonSchema, keywords: JsonSchema): JsonSchema {
  const types = typeOf(schema);
  const fitting = Object.entries(keywords).filter(([k]) => APPLIES_TO[k]?.some((t) => types.includes(t)));
  return fitting.length ? { ...schema, ...Object.fromEntries(fitting) } : schema;
}

/** `schema` with the limits added where they fit its type; a schema they do not fit is returned as is. */
export function withLimits(schema: JsonSchema, limits: Limits): JsonSchema {
  let out = merge(schema, limits.self);
  if (Object.keys(limits.items).length && out.items && typeof out.items === 'object')
    out = { ...out, items: merge(out.items as JsonSchema, limits.items) };
  if (limits.anyItems && out.items && typeof out.items === 'object') {
    const { format: _format, maxLength: _maxLength, ...items } = out.items as JsonSchema;
    out = { ...out, items };
  }
  return out;
}
