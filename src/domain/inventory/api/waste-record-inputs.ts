import { Field, Float, InputType } from 'type-graphql';
import { IsOptional, IsPositive, IsUUID, Length, ValidateNested } from 'class-validator';
import { WASTE_RECORD_DOCS } from '../entities/waste-record';
import { ImageRef } from '../../../entities/shared';

@InputType({ description: 'Changes to a waste record; absent fields stay as they are.' })
export class UpdateWasteRecordInput {
  @Field(() => String, { nullable: true, description: WASTE_RECORD_DOCS.productId })
  productId?: string;
  @Field(() => Float, { nullable: true, description: WASTE_RECORD_DOCS.quantity })
  @IsOptional()
  @IsPositive()
  quantity?: number;
  @Field(() => String, { nullable: true, description: WASTE_RECORD_DOCS.reason })
  @IsOptional()
  @Length(0, 2000)
  reason?: string | null;
  @Field(() => String, { nullable: true, description: WASTE_RECORD_DOCS.stockSiteId })
  stockSiteId?: string | null;
  @Field(() => String, { nullable: true, description: WASTE_RECORD_DOCS.shiftId })
  @IsOptional()
  @IsUUID()
  shiftId?: string | null;
  @Field(() => String, { nullable: true, description: WASTE_RECORD_DOCS.subsidiaryId })
  @IsOptional()
  @IsUUID()
  subsidiaryId?: string | null;
  @Field(() => String, { nullable: true, description: WASTE_RECORD_DOCS.approvedBy })
  @IsOptional()
  @Length(0, 200)
  approvedBy?: string | null;
  @Field(() => Boolean, {
    description: WASTE_RECORD_DOCS.deductRawMaterials,
    nullable: true,
  })
  deductRawMaterials?: boolean | null;
  @Field(() => ImageRef, { nullable: true, description: WASTE_RECORD_DOCS.image }) image?: ImageRef | null;
}

/**
 * The update's fields, with the product and quantity required. Only the GraphQL declarations are
 * overridden: type-graphql keeps an overridden field where the parent put it, so the published
 * field order is the parent's, and the validation rules are inherited (IsOptional never applies
 * to a non-null field, which GraphQL refuses to leave out).
 */
@InputType({ description: 'A quantity of a product registered as waste.' })
export class CreateWasteRecordInput extends UpdateWasteRecordInput {
  @Field(() => String, { description: WASTE_RECORD_DOCS.productId }) override productId!: string;
  @Field(() => Float, { description: WASTE_RECORD_DOCS.quantity }) override quantity!: number;
  @Field(() => Boolean, { nullable: true, description: 'Take the quantity out of the stock of stockSiteId.' })
  override deductRawMaterials?: boolean | null;
}

@InputType({ description: 'A waste registration as REST sends it: the record under `dto`.' })
export class WasteRegistrationInput {
  @Field(() => CreateWasteRecordInput, { description: 'The waste record.' })
  @ValidateNested()
  dto!: CreateWasteRecordInput;
}
