import { Field, ID, InputType, Int } from 'type-graphql';
import { ArrayMaxSize, IsOptional, IsUUID, Length, MaxLength, Min } from 'class-validator';
import { TeamStatus, TEAM_DOCS } from '../entities/team';
import { NotNullWhenGiven } from '../input-rules';

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
