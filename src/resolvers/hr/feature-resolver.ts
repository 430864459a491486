import { Arg, Ctx, FieldResolver, Float, ID, Int, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { Feature, FeatureStatus } from '../../entities/hr/feature';
import { can, Requires } from '../../permissions/rules';
import { EpicSummary } from './summary-types';
import { featureService } from './features';
import { featureEpic, progressField } from './planning-service';

@Resolver(() => Feature)
export class FeatureResolver {
  @FieldResolver(() => EpicSummary, { nullable: true, description: 'The epic, when the caller may see it.' })
  epic(@Root() feature: Feature, @Ctx() ctx: Context) {
    return featureEpic(ctx, feature);
  }

  @FieldResolver(() => Int, { description: 'Tasks of the feature.' })
  taskCount(@Root() feature: Feature, @Ctx() ctx: Context) {
    return progressField(ctx, 'featureId', feature, 'taskCount');
  }

  @FieldResolver(() => Int, { description: 'Tasks of the feature that are DONE.' })
  completedTaskCount(@Root() feature: Feature, @Ctx() ctx: Context) {
    return progressField(ctx, 'featureId', feature, 'completedTaskCount');
  }

  @FieldResolver(() => Float, { description: 'Percentage of the tasks that are DONE (0 without tasks).' })
  progress(@Root() feature: Feature, @Ctx() ctx: Context) {
    return progressField(ctx, 'featureId', feature, 'progress');
  }

  @Requires(can('READ', 'FEATURES'))
  @Query(() => [Feature], { description: 'The features of an epic, oldest first.' })
  featuresByEpic(
    @Arg('epicId', () => ID, { description: 'Id of the epic.' }) epicId: string,
    @Ctx() ctx: Context,
  ) {
    return featureService.listBy(ctx, 'epicId', epicId);
  }

  @Requires(can('READ', 'FEATURES'))
  @Query(() => [Feature], { description: 'The features in a status, oldest first.' })
  featuresByStatus(
    @Arg('status', () => FeatureStatus, { description: 'The status.' }) status: FeatureStatus,
    @Ctx() ctx: Context,
  ) {
    return featureService.list(ctx, { status });
  }
}
