import { Field, Float, ID, InputType, Int } from 'type-graphql';
import { LocalDateResolver } from 'graphql-scalars';
import { ArrayMaxSize, IsOptional, IsUUID, Length, MaxLength, Min } from 'class-validator';
import { HrProjectStatus, HR_PROJECT_DOCS } from '../entities/hr-project';
import { FileAsset } from '../../../entities/shared';
import { NotNullWhenGiven } from '../input-rules';

@InputType({ description: 'A new HR project.' })
export class CreateHrProjectInput {
  @Field(() => String, { description: HR_PROJECT_DOCS.name }) @Length(1, 200) name!: string;
  @Field(() => String, { nullable: true, description: HR_PROJECT_DOCS.code })
  @IsOptional()
  @MaxLength(50)
  code?: string;
  @Field(() => String, { nullable: true, description: HR_PROJECT_DOCS.description })
  @IsOptional()
  @MaxLength(5000)
  description?: string;
  @Field(() => String, { nullable: true, description: HR_PROJECT_DOCS.color })
  @IsOptional()
  @MaxLength(50)
  color?: string;
  @Field(() => ID, { nullable: true, description: HR_PROJECT_DOCS.clientId })
  @IsOptional()
  @IsUUID()
  clientId?: string;
  @Field(() => ID, {
    nullable: true,
    description: HR_PROJECT_DOCS.leadId,
  })
  @IsOptional()
  @IsUUID()
  leadId?: string;
  @Field(() => HrProjectStatus, {
    nullable: true,
    description: HR_PROJECT_DOCS.status,
  })
  status?: HrProjectStatus;
  @Field(() => [String], { nullable: true, description: HR_PROJECT_DOCS.tags })
  @IsOptional()
  @ArrayMaxSize(100)
  @MaxLength(100, { each: true })
  tags?: string[];
  @Field(() => [ID], {
    nullable: true,
    description: HR_PROJECT_DOCS.teamMemberIds,
  })
  @IsOptional()
  @ArrayMaxSize(1000)
  @IsUUID('all', { each: true })
  teamMemberIds?: string[];
  @Field(() => LocalDateResolver, { nullable: true, description: HR_PROJECT_DOCS.startDate })
  startDate?: string;
  @Field(() => LocalDateResolver, {
    nullable: true,
    description: HR_PROJECT_DOCS.endDate,
  })
  endDate?: string;
  @Field(() => Int, {
    nullable: true,
    description: HR_PROJECT_DOCS.defaultSprintDurationDays,
  })
  @IsOptional()
  @Min(1)
  defaultSprintDurationDays?: number;
  @Field(() => Float, { nullable: true, description: 'Hourly rate charged for work on the project.' })
  @IsOptional()
  @Min(0)
  hourlyRate?: number;
  @Field(() => FileAsset, { nullable: true, description: HR_PROJECT_DOCS.picture }) picture?: FileAsset;
}

@InputType({ description: 'Changes to an HR project; absent fields stay as they are.' })
export class UpdateHrProjectInput extends CreateHrProjectInput {
  @Field(() => String, { nullable: true, description: HR_PROJECT_DOCS.name })
  @NotNullWhenGiven()
  @Length(1, 200)
  override name!: string;
  @Field(() => HrProjectStatus, {
    nullable: true,
    description: HR_PROJECT_DOCS.status,
  })
  @NotNullWhenGiven()
  override status?: HrProjectStatus;
}
