import { Ctx, FieldResolver, Float, Int, Resolver, Root } from 'type-graphql';
import type { Context } from '../../../context';
import { Feature } from '../entities/feature';
import { EpicSummary } from './summary-types';
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
}
