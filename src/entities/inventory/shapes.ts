import { Field, Float, InputType, ObjectType } from 'type-graphql';
import { IsOptional, Min } from 'class-validator';

/**
 * A quantity of a product in a unit: a batch's unit-of-measurement split, a transfer's cancelled,
 * delivered or returned products. One shape, stored in JSON columns.
 */
@ObjectType('ProductQuantity', { description: 'A quantity of a product, in a unit.' })
@InputType('ProductQuantityInput', { description: 'A quantity of a product, as sent.' })
export class ProductQuantity {
  @Field(() => String, { nullable: true, description: 'Id of the product.' }) productId?: string | null;

  @Field(() => Float, { nullable: true, description: 'The quantity.' })
  @IsOptional()
  @Min(0)
  quantity?: number | null;

  @Field(() => String, { nullable: true, description: 'The unit the quantity is in.' }) unit?: string | null;
}

/** Rounds to the four decimals that quantities and prices are stored with (numeric(14,4)). */
export const round4 = (n: number): number => Math.round(n * 10_000) / 10_000;

/** The sum of the quantities of `items` (absent quantities count as zero). */
export const sumOf = (items: readonly { quantity?: number | null }[]): number =>
  round4(items.reduce((s, i) => s + Number(i.quantity ?? 0), 0));
