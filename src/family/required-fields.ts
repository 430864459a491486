import { MetadataStorage, type EntityManager } from '@mikro-orm/core';
import { ValidationError } from 'class-validator';
import type { GroupDef } from './group';

/**
 * What a group's create and update inputs write: the entity, and the second names of its boolean
 * fields (`isActive` writes `active`).
 */
interface WrittenEntity {
  entity: string;
  /** Each name of a boolean pair, to its stored name and the pair's other name. */
  pairs: ReadonlyMap<string, { stored: string; other: string }>;
}

const writes = new WeakMap<Function, WrittenEntity>();
/** The same, by the input's GraphQL name (its class name), for the published documents. */
const writesByName = new Map<string, { entity: Function; pairs: WrittenEntity['pairs'] }>();

/** Marks a group's create and update inputs as writing its entity (app-schema.ts, per group). */
export function registerWritingInputs(group: GroupDef<any, any, any>): void {
  const pairs = new Map<string, { stored: string; other: string }>();
  for (const [stored, alias] of group.booleanPairs ?? []) {
    pairs.set(alias, { stored, other: stored });
    pairs.set(stored, { stored, other: alias });
  }
  const written = { entity: group.entity.name, pairs };
  writes.set(group.createInput, written);
  writes.set(group.updateInput, written);
  writesByName.set(group.createInput.name, { entity: group.entity, pairs });
  writesByName.set(group.updateInput.name, { entity: group.entity, pairs });
}

/** Properties stored in a column of the record's own table. */
const COLUMN_KINDS = new Set(['scalar', 'm:1', '1:1', 'undefined']);

/**
 * The fields of a create or update input that may be left out but not sent as null, for the
 * OpenAPI document: those whose column is NOT NULL, as the entity's decorators declare it (the
 * same declarations that made the tables; nullWhereRequired reads them as MikroORM discovered
 * them). Empty for any other input.
 */
export function notNullFieldsOf(inputName: string, fields: readonly string[]): Set<string> {
  const written = writesByName.get(inputName);
  if (!written) return new Set();
  const declared = Object.values(MetadataStorage.getMetadata());
  const notNull = new Set<string>();
  for (let type = written.entity; type && type !== Object; type = Object.getPrototypeOf(type)) {
    const meta = declared.find((m) => m.className === type.name);
    for (const property of Object.values(meta?.properties ?? {}))
      if (!property.nullable && property.persist !== false && COLUMN_KINDS.has(String(property.kind)))
        notNull.add(property.name);
  }
  return new Set(fields.filter((f) => notNull.has(written.pairs.get(f)?.stored ?? f)));
}

export const MUST_NOT_BE_NULL = 'must not be null';

/**
 * The fields of an input given as null whose column may not hold NULL. An absent field keeps its
 * value (or takes its default), but null asks the database to store NULL, which it would refuse
 * half-way through the write; the input's validation refuses it first, naming the field, as it
 * refuses a value of the wrong length. The entity's metadata (the same that made the tables'
 * NOT NULL) says which columns those are, so no input repeats it.
 */
export function nullWhereRequired(em: EntityManager, input: object, inputType: Function): ValidationError[] {
  const written = writes.get(inputType);
  if (!written) return [];
  let properties: Record<string, { nullable?: boolean; fieldNames?: string[] }> | undefined;
  const found: ValidationError[] = [];
  for (const [field, value] of Object.entries(input)) {
    if (value !== null) continue;
    // One name of a pair may be null while the other carries the value (FamilyService.normalize).
    const pair = written.pairs.get(field);
    const other = pair ? (input as Record<string, unknown>)[pair.other] : undefined;
    if (other !== null && other !== undefined) continue;
    properties ??= em.getMetadata().find(written.entity)?.properties as typeof properties;
    const property = properties?.[pair?.stored ?? field];
    // A property MikroORM stores in a column of its own is NOT NULL unless declared nullable.
    if (!property?.fieldNames?.length || property.nullable) continue;
    const error = new ValidationError();
    error.target = input;
    error.property = field;
    error.value = null;
    error.constraints = { isNotNull: MUST_NOT_BE_NULL };
    error.children = [];
    found.push(error);
  }
  return found;
}
