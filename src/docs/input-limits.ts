import { getMetadataStorage as validationStorage, type MetadataStorage } from 'class-validator';
import { getMetadataStorage as graphqlStorage } from 'type-graphql';
import { ARGUMENT_LIMITS, PAGED_INPUTS, type NumberLimits } from '../family/limits';
import type { JsonSchema } from './json-schema';

/**
 * The limits the service enforces on an input, as JSON Schema keywords, read from where they are
 * enforced: the class-validator decorators of the input classes (the arguments are validated with
 * them, src/schema/build.ts) and the paging and id-list checks of src/family/limits.ts. Nothing
 * is restated here, so the document cannot promise a limit the service does not keep.
 */
export interface Limits {
  /** Keywords of the value itself. */
  self: JsonSchema;
  /** Keywords of each element, for a list (`{ each: true }` decorators). */
  items: JsonSchema;
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
    ? argumentLimits(field)
    : NONE;
}

/** The limits of a root field's argument (page numbers, page sizes, id lists) by its name. */
export function argumentLimits(name: string): Limits {
  const limits: NumberLimits | undefined = ARGUMENT_LIMITS[name];
  return limits ? { self: { ...limits }, items: {} } : NONE;
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
  return out;
}
