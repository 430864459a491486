import { Field, Float, ID, InputType, Int } from 'type-graphql';
import { LocalDateResolver } from 'graphql-scalars';
import { ArrayMaxSize, IsOptional, IsUUID, Length, MaxLength, Min } from 'class-validator';
import { HrProject, HrProjectStatus } from '../../entities/hr/hr-project';
import { FileAsset } from '../../entities/shared';
import { defineGroup } from '../../family/group';
import { FamilyService } from '../../family/service';
import { checkPeriod, fillDefaults, NotNullWhenGiven } from './input-rules';
import { checkRefs, refsIn, refsOf } from '../../family/references';
import { Customer } from '../../entities/reference/customer';
import { Employee } from '../../entities/reference/employee';
import { epicCountSql, taskProgressSql } from './progress-sql';

@InputType({ description: 'A new HR project.' })
export class CreateHrProjectInput {
  @Field(() => String) @Length(1, 200) name!: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(50) code?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(5000) description?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(50) color?: string;
  @Field(() => ID, { nullable: true }) @IsOptional() @IsUUID() clientId?: string;
  @Field(() => ID, { nullable: true }) @IsOptional() @IsUUID() leadId?: string;
  @Field(() => HrProjectStatus, { nullable: true }) status?: HrProjectStatus;
  @Field(() => [String], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(100)
  @MaxLength(100, { each: true })
  tags?: string[];
  @Field(() => [ID], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(1000)
  @IsUUID('all', { each: true })
  teamMemberIds?: string[];
  @Field(() => LocalDateResolver, { nullable: true }) startDate?: string;
  @Field(() => LocalDateResolver, { nullable: true }) endDate?: string;
  @Field(() => Int, { nullable: true }) @IsOptional() @Min(1) defaultSprintDurationDays?: number;
  @Field(() => Float, { nullable: true }) @IsOptional() @Min(0) hourlyRate?: number;
  @Field(() => FileAsset, { nullable: true }) picture?: FileAsset;
}

@InputType({ description: 'Changes to an HR project; absent fields stay as they are.' })
export class UpdateHrProjectInput extends CreateHrProjectInput {
  @Field(() => String, { nullable: true }) @NotNullWhenGiven() @Length(1, 200) override name!: string;
  @Field(() => HrProjectStatus, { nullable: true }) @NotNullWhenGiven() override status?: HrProjectStatus;
}

export const hrProjects = defineGroup({
  entity: HrProject,
  name: 'HrProject',
  plural: 'HrProjects',
  resource: 'PROJECTS',
  createInput: CreateHrProjectInput,
  updateInput: UpdateHrProjectInput,
  searchable: ['name', 'code', 'description'],
  derived: { epicCount: epicCountSql, ...taskProgressSql('project_id') },
  async beforeSave(ctx, project, input) {
    await checkRefs(ctx, 400, [
      ...refsIn(input, [
        ['clientId', Customer],
        ['leadId', Employee],
      ]),
      ...refsOf('teamMemberIds', input.teamMemberIds ?? [], Employee),
    ]);
    fillDefaults(project, { status: HrProjectStatus.PLANNING, tags: [], teamMemberIds: [] });
    project.teamMemberIds = [...new Set(project.teamMemberIds)];
    checkPeriod(project.startDate, project.endDate, ['startDate', 'endDate']);
  },
});

/** The family operations of hrProjects, for this domain's own rules and queries. */
export const hrProjectService = new FamilyService(hrProjects);
