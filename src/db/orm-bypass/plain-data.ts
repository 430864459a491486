import {
  ArrayType,
  BigIntType,
  helper,
  ReferenceKind,
  Type,
  Utils,
  type EntityMetadata,
  type EntityProperty,
} from '@mikro-orm/core';

/**
 * A record's fields as MikroORM's `toObject` and `toPOJO` give them, read directly where the
 * two are just that: every property a scalar, none hidden, renamed, lazy, prefixed with `_`,
 * serialized by a function or by a type whose JSON form differs from its value, and no getters.
 * Such a record's `toObject` (and `toPOJO`) is its primary keys and then its other fields in
 * their own order. MikroORM builds a serialization context for every call and walks it for
 * relations a scalar record has none of: a visible share of every write's CPU, once for its
 * outbox event and once per record a deletion logs (bench/README.md, "The write
 * path"). Every record type with `events` is such a record today;
 * test/foundation/orm-internals.test.ts holds the forms equal for each.
 */
const plainShapes = new WeakMap<EntityMetadata, boolean>();

function isPlainShape(meta: EntityMetadata): boolean {
  let plain = plainShapes.get(meta);
  if (plain === undefined) {
    plain =
      meta.getterProps.length === 0 &&
      meta.props.every(
        (p) =>
          p.kind === ReferenceKind.SCALAR &&
          !p.name.startsWith('_') &&
          !p.hidden &&
          !p.serializer &&
          !p.serializedName &&
          !p.ref &&
          !p.getter &&
          !p.getterName &&
          (!p.customType ||
            p.customType.toJSON === Type.prototype.toJSON ||
            p.customType.toJSON === ArrayType.prototype.toJSON ||
            (p.customType instanceof BigIntType && p.customType.mode === 'number')),
      );
    plainShapes.set(meta, plain);
  }
  return plain;
}

/**
 * `toObject()` of `entity`, equally `toPOJO()`, read directly (see above); undefined where it
 * must be MikroORM's own (a record of another shape, a reference not loaded, one loaded with
 * some fields only).
 */
export function plainData(entity: object): Record<string, unknown> | undefined {
  const wrapped = helper(entity);
  const meta = wrapped?.__meta;
  if (
    !meta ||
    !isPlainShape(meta) ||
    !wrapped.isInitialized() ||
    // Read with some fields only (all, `*`, is what a find reads by default).
    (wrapped.__serializationContext.fields && !wrapped.__serializationContext.fields.has('*')) ||
    wrapped.__config.get('serialization').includePrimaryKeys === false
  )
    return undefined;
  const record = entity as Record<string, unknown>;
  const props = meta.properties as Record<string, EntityProperty | undefined>;
  const data: Record<string, unknown> = {};
  const keys: string[] =
    meta.serializedPrimaryKey && !meta.compositePK ? [meta.serializedPrimaryKey] : meta.primaryKeys;
  for (const key of [...keys, ...Object.keys(record)]) {
    if (!props[key] || key in data) continue;
    const value = record[key];
    if (typeof value === 'function' || Utils.isRawSql(value)) return undefined;
    if (value !== undefined) data[key] = value;
  }
  return data;
}
