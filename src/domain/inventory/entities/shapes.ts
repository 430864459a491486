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
