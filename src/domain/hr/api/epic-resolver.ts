import { Ctx, FieldResolver, Float, Int, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../../context';
import { Epic, EpicStatus } from '../entities/epic';
import { can, Requires } from '../../../permissions/rules';
import { PersonSummary } from './summary-types';
import { epicService } from './epics';
import { featureCount, person, progressField } from './planning-service';

/** Epics that are "active": planned or under way, not paused, finished or dropped. */
export const ACTIVE_EPIC_STATUSES = [EpicStatus.PLANNING, EpicStatus.IN_PROGRESS];

@Resolver(() => Epic)
export class EpicResolver {
  @FieldResolver(() => PersonSummary, { nullable: true, description: 'The employee named by ownerId.' })
  owner(@Root() epic: Epic, @Ctx() ctx: Context) {
    return person(ctx, epic.ownerId);
  }

  @FieldResolver(() => Int, { description: 'Features of the epic.' })
  featureCount(@Root() epic: Epic, @Ctx() ctx: Context) {
    return featureCount(ctx, epic.id);
  }

  @FieldResolver(() => Int, { description: 'Tasks of the epic (those of its features included).' })
  taskCount(@Root() epic: Epic, @Ctx() ctx: Context) {
    return progressField(ctx, 'epicId', epic, 'taskCount');
  }

  @FieldResolver(() => Int, { description: 'Tasks of the epic that are DONE.' })
  completedTaskCount(@Root() epic: Epic, @Ctx() ctx: Context) {
    return progressField(ctx, 'epicId', epic, 'completedTaskCount');
  }

  @FieldResolver(() => Float, { description: 'Percentage of the tasks that are DONE (0 without tasks).' })
  progress(@Root() epic: Epic, @Ctx() ctx: Context) {
    return progressField(ctx, 'epicId', epic, 'progress');
  }

  @Requires(can('READ', 'EPICS'))
  @Query(() => [Epic], { description: 'Epics in PLANNING or IN_PROGRESS, oldest first.' })
  activeEpics(@Ctx() ctx: Context) {
    return epicService.list(ctx, { status: { $in: ACTIVE_EPIC_STATUSES } });
  }
}
