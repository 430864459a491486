import { Field, ID, InputType, Int } from 'type-graphql';
import { ArrayMaxSize, IsOptional, IsUUID, Length, MaxLength, Min } from 'class-validator';
import { Team, TeamStatus, TEAM_DOCS } from '../../entities/hr/team';
import { defineGroup } from '../../family/group';
import { FamilyService } from '../../family/service';
import { fillDefaults, NotNullWhenGiven } from './input-rules';
import { checkRefs, refsOf } from '../../family/references';
import { Employee } from '../../entities/reference/employee';

@InputType({ description: 'A new team.' })
export class CreateTeamInput {
  @Field(() => String, { description: TEAM_DOCS.name }) @Length(1, 200) name!: string;
  @Field(() => String, { nullable: true, description: TEAM_DOCS.description })
  @IsOptional()
  @MaxLength(5000)
  description?: string;
  @Field(() => String, { nullable: true, description: TEAM_DOCS.color })
  @IsOptional()
  @MaxLength(50)
  color?: string;
  @Field(() => Int, { nullable: true, description: TEAM_DOCS.dailyCapacity })
  @IsOptional()
  @Min(0)
  dailyCapacity?: number;
  @Field(() => [ID], {
    nullable: true,
    description: TEAM_DOCS.memberIds,
  })
  @IsOptional()
  @ArrayMaxSize(1000)
  @IsUUID('all', { each: true })
  memberIds?: string[];
  @Field(() => TeamStatus, { nullable: true, description: TEAM_DOCS.status })
  status?: TeamStatus;
}

@InputType({ description: 'Changes to a team; absent fields stay as they are.' })
export class UpdateTeamInput extends CreateTeamInput {
  @Field(() => String, { nullable: true, description: TEAM_DOCS.name })
  @NotNullWhenGiven()
  @Length(1, 200)
  override name!: string;
  @Field(() => TeamStatus, { nullable: true, description: TEAM_DOCS.status })
  @NotNullWhenGiven()
  override status?: TeamStatus;
}

export const teams = defineGroup({
  entity: Team,
  name: 'Team',
  plural: 'Teams',
  resource: 'TEAMS',
  createInput: CreateTeamInput,
  updateInput: UpdateTeamInput,
  searchable: ['name', 'description'],
  async beforeSave(ctx, team, input) {
    await checkRefs(ctx, 400, refsOf('memberIds', input.memberIds ?? [], Employee));
    fillDefaults(team, { status: TeamStatus.ACTIVE, memberIds: [] });
    team.memberIds = [...new Set(team.memberIds)];
  },
});

/** The family operations of teams, for this domain's own rules and queries. */
export const teamService = new FamilyService(teams);
