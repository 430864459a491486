import { Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../../context';
import { Team, TeamStatus } from '../entities/team';
import { can, Requires } from '../../../permissions/rules';
import { TeamMember } from './summary-types';
import { employees } from './planning-service';
import { teamService } from './teams';

@Resolver(() => Team)
export class TeamResolver {
  @FieldResolver(() => [TeamMember], { description: 'The employees named by memberIds, in that order.' })
  members(@Root() team: Team, @Ctx() ctx: Context) {
    return employees(ctx, team.memberIds);
  }

  @Requires(can('READ', 'TEAMS'))
  @Query(() => [Team], { description: 'Teams in status ACTIVE, oldest first.' })
  activeTeams(@Ctx() ctx: Context) {
    return teamService.list(ctx, { status: TeamStatus.ACTIVE });
  }
}
