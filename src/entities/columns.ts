import { DecimalType, Enum, Index, Property } from '@mikro-orm/core';
import { Field, Float, ID, Int } from 'type-graphql';
import { LocalDateResolver } from 'graphql-scalars';
import { DateTimeISOResolver } from '../schema/date-time';

/**
 * Column helpers: each applies the MikroORM `@Property` (column type, nullability) and the
 * type-graphql `@Field` (GraphQL type, nullability, description) of one kind of column, so a
 * field is declared once and the database and the API cannot disagree about it. A column is
 * nullable unless `nullable: false` is given; an optional field is written `name?: T | null`.
 */
export interface ColumnOptions {
  /** What the field means; shown in the GraphQL schema and the OpenAPI document. */
  description?: string;
  /** Whether the column may hold NULL (and the GraphQL field may be null). Default: true. */
  nullable?: boolean;
}

type PropertyOptions = Parameters<typeof Property>[0];
/** The GraphQL type of a field, as `@Field` takes it (`() => String`, `() => [Event]`). */
type GraphQLType = NonNullable<Parameters<typeof Field>[0]>;

/** The `@Property` and `@Field` of one column, applied together. */
function column(
  property: PropertyOptions,
  graphqlType: GraphQLType,
  options: ColumnOptions,
): PropertyDecorator {
  const nullable = options.nullable ?? true;
  const applyProperty = Property({ ...property, ...(nullable ? { nullable } : {}) });
  const applyField = Field(graphqlType, {
    ...(nullable ? { nullable } : {}),
    ...(options.description ? { description: options.description } : {}),
  });
  return (target, key) => {
    applyProperty(target, key as string);
    applyField(target, key);
  };
}

/**
 * A decimal column (money, quantities, rates): exact `numeric(precision, scale)` in PostgreSQL,
 * a JS number in the entity, a GraphQL Float. One decorator, so every amount is declared alike.
 */
export function DecimalColumn(
  precision: number,
  scale: number,
  options: ColumnOptions = {},
): PropertyDecorator {
  return column(
    { type: new DecimalType('number'), columnType: `numeric(${precision},${scale})` },
    () => Float,
    options,
  );
}

/** A `text` column, a GraphQL String. */
export function TextColumn(options: ColumnOptions = {}): PropertyDecorator {
  return column({ type: 'text' }, () => String, options);
}

/** A `text[]` column, a GraphQL list of String (or of ID with `id: true`); never null. */
export function TextListColumn(
  options: Omit<ColumnOptions, 'nullable'> & { id?: boolean } = {},
): PropertyDecorator {
  return column({ type: 'text[]' }, () => (options.id ? [ID] : [String]), { ...options, nullable: false });
}

/**
 * A `uuid` column holding the id of another record. GraphQL shows it as a String, or as an ID
 * with `id: true` (the published schema has both; each field keeps the type it was published with).
 */
export function UuidColumn(options: ColumnOptions & { id?: boolean } = {}): PropertyDecorator {
  return column({ type: 'uuid' }, () => (options.id ? ID : String), options);
}

/** A `timestamptz` column, a `Date` in the entity, an ISO 8601 date-time in GraphQL. */
export function DateTimeColumn(options: ColumnOptions = {}): PropertyDecorator {
  return column({ type: 'timestamptz' }, () => DateTimeISOResolver, options);
}

/** A `date` column (a calendar day without time), a GraphQL LocalDate. */
export function DateColumn(options: ColumnOptions = {}): PropertyDecorator {
  return column({ type: 'date' }, () => LocalDateResolver, options);
}

/** An `integer` column, a GraphQL Int. */
export function IntColumn(options: ColumnOptions = {}): PropertyDecorator {
  return column({ type: 'integer' }, () => Int, options);
}

/** A `boolean` column, a GraphQL Boolean. */
export function BooleanColumn(options: ColumnOptions = {}): PropertyDecorator {
  return column({ type: 'boolean' }, () => Boolean, options);
}

/**
 * A boolean with two names (the specification has both): the column is stored under the
 * decorated name, and `alias` is a read-only GraphQL field (and entity getter) with the same value.
 */
export function BooleanPairColumn(
  alias: string,
  options: ColumnOptions & { aliasDescription: string },
): PropertyDecorator {
  const applyColumn = BooleanColumn(options);
  const applyAlias = Field(() => Boolean, { description: options.aliasDescription });
  return (target, key) => {
    applyColumn(target, key);
    const descriptor: PropertyDescriptor = {
      configurable: true,
      enumerable: false,
      get(this: Record<string | symbol, unknown>) {
        return this[key];
      },
    };
    Object.defineProperty(target, alias, descriptor);
    applyAlias(target, alias, descriptor);
  };
}

/** A `json` column; `graphqlType` is the shape it holds (a shared shape, a list of one, or JSON). */
export function JsonColumn(graphqlType: GraphQLType, options: ColumnOptions = {}): PropertyDecorator {
  return column({ type: 'json' }, graphqlType, options);
}

/** An enum column (a text column checked against the enum's values), the registered GraphQL enum. */
export function EnumColumn(items: () => object, options: ColumnOptions = {}): PropertyDecorator {
  const nullable = options.nullable ?? true;
  const applyEnum = Enum({ items: items as never, ...(nullable ? { nullable } : {}) });
  const applyField = Field(items as GraphQLType, {
    ...(nullable ? { nullable } : {}),
    ...(options.description ? { description: options.description } : {}),
  });
  return (target, key) => {
    applyEnum(target, key as string);
    applyField(target, key);
  };
}

const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/**
 * One index per filtered, sorted or searched column, each led by tenant_id: every query carries
 * the tenant filter, so an index without it would be scanned across every tenant's rows.
 * Names follow `<table>_tenant_<column>_idx`, as the migration generator would write them.
 * An index over several columns is a plain `@Index` with its properties listed.
 */
export function TenantIndexes(table: string, ...properties: string[]): ClassDecorator {
  return (target) => {
    for (const property of properties) {
      const name = `${table}_tenant_${snake(property)}_idx`;
      Index({ name, properties: ['tenantId', property] as never })(target as never);
    }
  };
}
