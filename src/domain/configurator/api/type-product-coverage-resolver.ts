import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { CoverageJob, CoverageJobPriority } from '../entities/coverage-job';
import { TypeProductCoverage } from '../entities/type-product-coverage';
import type { Context } from '../../../context';
import { SearchInput } from '../../../family/search-input';
import { can, Requires } from '../../../permissions/rules';
import { coveragesByNames, createProductsForCoverages, queueCoverageCalculation } from './coverage-service';

@Resolver(() => TypeProductCoverage)
export class TypeProductCoverageResolver {
  @Requires(can('READ', 'COVERAGES'))
  @Query(() => [TypeProductCoverage], {
    description: 'Coverages of a type with the product names given, in the order of the names.',
  })
  typeProductCoveragesByNames(
    @Arg('typeId', () => ID, { description: 'Id of the configurator type.' }) typeId: string,
    @Arg('names', () => [String], { defaultValue: [], description: 'Product names to look for.' })
    names: string[],
    @Ctx() ctx: Context,
  ): Promise<TypeProductCoverage[]> {
    return coveragesByNames(ctx, typeId, names);
  }

  @Requires(can('CREATE', 'COVERAGES'))
  @Mutation(() => Int, {
    description:
      'Creates and links a Product for each coverage without one on the page of the search; returns how many products were created.',
  })
  createProductsForTypeProductCoverages(
    @Arg('input', () => SearchInput, {
      description:
        'Which coverages; one product is made per distinct name among those without a linked product.',
      nullable: true,
    })
    input: SearchInput | undefined,
    @Ctx() ctx: Context,
  ): Promise<number> {
    return createProductsForCoverages(ctx, input ?? {});
  }

  @Requires(can('CREATE', 'COVERAGES'))
  @Mutation(() => [CoverageJob], {
    description: 'Queues a coverage calculation job per static model of the type (status PENDING).',
  })
  calculateTypeProductCoverage(
    @Arg('typeId', () => ID, { description: 'Id of the configurator type.' }) typeId: string,
    @Arg('priority', () => CoverageJobPriority, {
      nullable: true,
      description: 'Priority of the jobs (default LOW); an already pending job is raised to it.',
    })
    priority: CoverageJobPriority | undefined,
    @Ctx() ctx: Context,
  ): Promise<CoverageJob[]> {
    return queueCoverageCalculation(ctx, typeId, priority ?? undefined);
  }
}
