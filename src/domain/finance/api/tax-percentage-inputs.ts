import { Field, Float, InputType } from 'type-graphql';
import { IsOptional, Max, Min } from 'class-validator';
import { TAX_PERCENTAGE_DOCS } from '../entities/tax-percentage';

@InputType({ description: 'Changes to a tax rate.' })
export class UpdateTaxPercentageInput {
  @Field(() => Float, { nullable: true, description: TAX_PERCENTAGE_DOCS.percentage })
  @IsOptional()
  @Min(0)
  @Max(100)
  percentage?: number;
}

/** The update's field, required (its validation inherited). */
@InputType({ description: 'A new tax rate, in percent (21 means 21%).' })
export class CreateTaxPercentageInput extends UpdateTaxPercentageInput {
  @Field(() => Float, { description: TAX_PERCENTAGE_DOCS.percentage })
  override percentage!: number;
}
