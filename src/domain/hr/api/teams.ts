import { ID } from 'type-graphql';
import { Team, TeamStatus } from '../entities/team';
import { defineGroup } from '../../../family/group';
import { FamilyService } from '../../../family/service';
import { fillDefaults } from '../input-rules';
import { checkRefs, refsOf } from '../../../family/references';
import { Employee } from '../../reference/entities/employee';
import { CreateTeamInput, UpdateTeamInput } from './team-inputs';

export const teams = defineGroup({
  entity: Team,
  name: 'Team',
  plural: 'Teams',
  resource: 'TEAMS',
  createInput: CreateTeamInput,
  updateInput: UpdateTeamInput,
  searchable: ['name', 'description'],
  lists: [
    {
      name: 'teamsByMember',
      description: 'The teams an employee is a member of, oldest first.',
      field: 'memberIds',
      arg: 'memberId',
      argDescription: 'Id of the employee.',
      type: () => ID,
      contains: true,
    },
    {
      name: 'teamsByStatus',
      description: 'The teams in a status, oldest first.',
      field: 'status',
      arg: 'status',
      argDescription: 'The status.',
      type: () => TeamStatus,
    },
  ],
  async beforeSave(ctx, team, input) {
    await checkRefs(ctx, 400, refsOf('memberIds', input.memberIds ?? [], Employee));
    fillDefaults(team, { status: TeamStatus.ACTIVE, memberIds: [] });
    team.memberIds = [...new Set(team.memberIds)];
  },
});

/** The family operations of teams, for this domain's own rules and queries. */
export const teamService = new FamilyService(teams);
