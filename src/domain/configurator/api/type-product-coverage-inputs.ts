import { Field, ID, InputType } from 'type-graphql';
import { IsOptional, Length } from 'class-validator';
import { ConfiguratorType } from '../entities/configurator-type';
import { TypeProductCoverage, TYPE_PRODUCT_COVERAGE_DOCS } from '../entities/type-product-coverage';
import { StaticModelType } from '../entities/type-shapes';
import { Product } from '../../reference/entities/product';
import { FileAsset, Parameter } from '../../../entities/shared';
import type { Context } from '../../../context';
import { deriveCoverageFigures } from '../coverage-figures';
import { checkRefs } from '../../../family/references';

@InputType({ description: 'Changes to a coverage; absent fields stay as they are.' })
export class UpdateTypeProductCoverageInput {
  @Field(() => ID, { nullable: true, description: TYPE_PRODUCT_COVERAGE_DOCS.typeId }) typeId?: string;
  @Field(() => String, { nullable: true, description: TYPE_PRODUCT_COVERAGE_DOCS.productName })
  @IsOptional()
  @Length(1, 300)
  productName?: string;
  @Field(() => ID, { nullable: true, description: 'Id of the product made for the coverage.' })
  linkedProductId?: string;
  @Field(() => String, { nullable: true, description: 'Id of the static model tree it was calculated from.' })
  staticModelTreeId?: string;
  @Field(() => String, { nullable: true, description: 'Id of the variant it covers.' }) variantId?: string;
  @Field(() => StaticModelType, { nullable: true, description: TYPE_PRODUCT_COVERAGE_DOCS.modelType })
  modelType?: StaticModelType;
  @Field(() => [Parameter], { nullable: true, description: TYPE_PRODUCT_COVERAGE_DOCS.parameters })
  parameters?: Parameter[];
  @Field(() => [String], { nullable: true, description: TYPE_PRODUCT_COVERAGE_DOCS.projectIds })
  projectIds?: string[];
  @Field(() => [FileAsset], {
    nullable: true,
    description: TYPE_PRODUCT_COVERAGE_DOCS.assets,
  })
  assets?: FileAsset[];
}

/** The update's fields with a required typeId (a subclass field replaces the inherited one). */
@InputType({
  description: 'A coverage row made by hand; complete flags and totalFileSize follow from the assets.',
})
export class CreateTypeProductCoverageInput extends UpdateTypeProductCoverageInput {
  @Field(() => ID, { description: TYPE_PRODUCT_COVERAGE_DOCS.typeId }) override typeId!: string;
}

type CoverageInput = Partial<CreateTypeProductCoverageInput & UpdateTypeProductCoverageInput>;

/** References must name records of the caller's tenant; lists are never null; figures are derived. */
export async function prepareCoverage(
  ctx: Context,
  coverage: TypeProductCoverage,
  input: CoverageInput,
  isNew: boolean,
): Promise<void> {
  await checkRefs(ctx, 400, [
    ...(isNew || 'typeId' in input
      ? [{ field: 'typeId', id: coverage.typeId ?? '', target: ConfiguratorType }]
      : []),
    ...('linkedProductId' in input
      ? [{ field: 'linkedProductId', id: coverage.linkedProductId, target: Product }]
      : []),
  ]);
  coverage.parameters ??= [];
  coverage.projectIds ??= [];
  coverage.assets ??= [];
  deriveCoverageFigures(coverage);
}
