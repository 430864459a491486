import { Ctx, FieldResolver, Float, Int, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../../context';
import { HrProject, HrProjectStatus } from '../entities/hr-project';
import { can, Requires } from '../../../permissions/rules';
import { PersonSummary } from './summary-types';
import { hrProjectService } from './hr-projects';
import { people, person, progressField, visibleEpicCount } from './planning-service';

@Resolver(() => HrProject)
export class HrProjectResolver {
  @FieldResolver(() => PersonSummary, { nullable: true, description: 'The employee named by leadId.' })
  lead(@Root() project: HrProject, @Ctx() ctx: Context) {
    return person(ctx, project.leadId);
  }

  @FieldResolver(() => [PersonSummary], { description: 'The employees named by teamMemberIds.' })
  teamMembers(@Root() project: HrProject, @Ctx() ctx: Context) {
    return people(ctx, project.teamMemberIds);
  }

  @FieldResolver(() => Int, { description: 'Epics of the project the caller may see.' })
  epicCount(@Root() project: HrProject, @Ctx() ctx: Context) {
    return visibleEpicCount(ctx, project.id);
  }

  @FieldResolver(() => Int, { description: 'Tasks of the project.' })
  taskCount(@Root() project: HrProject, @Ctx() ctx: Context) {
    return progressField(ctx, 'projectId', project, 'taskCount');
  }

  @FieldResolver(() => Int, { description: 'Tasks of the project that are DONE.' })
  completedTaskCount(@Root() project: HrProject, @Ctx() ctx: Context) {
    return progressField(ctx, 'projectId', project, 'completedTaskCount');
  }

  @FieldResolver(() => Float, { description: 'Percentage of the tasks that are DONE (0 without tasks).' })
  progress(@Root() project: HrProject, @Ctx() ctx: Context) {
    return progressField(ctx, 'projectId', project, 'progress');
  }

  @Requires(can('READ', 'PROJECTS'))
  @Query(() => [HrProject], { description: 'HR projects in status ACTIVE, oldest first.' })
  activeHrProjects(@Ctx() ctx: Context) {
    return hrProjectService.list(ctx, { status: HrProjectStatus.ACTIVE });
  }
}
