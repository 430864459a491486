import { Arg, Ctx, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { Team, TeamStatus } from '../../entities/hr/team';
import { isUuid } from '../../family/limits';
import { can, Requires } from '../../permissions/rules';
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

  @Requires(can('READ', 'TEAMS'))
  @Query(() => [Team], { description: 'The teams an employee is a member of, oldest first.' })
  async teamsByMember(
    @Arg('memberId', () => ID, { description: 'Id of the employee.' }) memberId: string,
    @Ctx() ctx: Context,
  ) {
    return isUuid(memberId) ? teamService.list(ctx, { memberIds: { $contains: [memberId] } }) : [];
  }

  @Requires(can('READ', 'TEAMS'))
  @Query(() => [Team], { description: 'The teams in a status, oldest first.' })
  teamsByStatus(
    @Arg('status', () => TeamStatus, { description: 'The status.' }) status: TeamStatus,
    @Ctx() ctx: Context,
  ) {
    return teamService.list(ctx, { status });
  }
}
