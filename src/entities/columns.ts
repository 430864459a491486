import { DecimalType, Property } from '@mikro-orm/core';
import { Field, Float } from 'type-graphql';

/**
 * A decimal column (money, quantities, rates): exact `numeric(precision, scale)` in PostgreSQL,
 * a JS number in the entity, a GraphQL Float. One decorator, so every amount is declared alike.
 */
export function DecimalColumn(
  precision: number,
  scale: number,
  options: { description?: string; nullable?: boolean } = {},
): PropertyDecorator {
  const nullable = options.nullable ?? true;
  const property = Property({
    type: new DecimalType('number'),
    columnType: `numeric(${precision},${scale})`,
    nullable,
  });
  const field = Field(() => Float, {
    nullable,
    ...(options.description ? { description: options.description } : {}),
  });
  return (target, key) => {
    property(target, key as string);
    field(target, key);
  };
}
