import { Field, Float, ID, InputType, Int } from 'type-graphql';
import { LocalDateResolver } from 'graphql-scalars';
import { ArrayMaxSize, IsOptional, IsUUID, Length, MaxLength, Min } from 'class-validator';
import { HrProject, HrProjectStatus } from '../../entities/hr/hr-project';
import { FileAsset } from '../../entities/shared';
import { defineGroup } from '../../family/group';
import { FamilyService } from '../../family/service';
import { checkPeriod, fillDefaults, NotNullWhenGiven } from './input-rules';
import { AUDIT_FIELDS } from '../../family/fields';
import { checkRefs, refsIn, refsOf } from '../../family/references';
import { Customer } from '../../entities/reference/customer';
import { Employee } from '../../entities/reference/employee';

@InputType({ description: 'A new HR project.' })
export class CreateHrProjectInput {
  @Field(() => String, { description: 'Name of the project.' }) @Length(1, 200) name!: string;
  @Field(() => String, { nullable: true, description: 'Short code of the project.' })
  @IsOptional()
  @MaxLength(50)
  code?: string;
  @Field(() => String, { nullable: true, description: 'What the project is about.' })
  @IsOptional()
  @MaxLength(5000)
  description?: string;
  @Field(() => String, { nullable: true, description: 'Colour shown for the project (CSS colour).' })
  @IsOptional()
  @MaxLength(50)
  color?: string;
  @Field(() => ID, { nullable: true, description: 'Id of the client the project is for.' })
  @IsOptional()
  @IsUUID()
  clientId?: string;
  @Field(() => ID, {
    nullable: true,
    description: 'Id of the employee who leads the project; `lead` is that employee.',
  })
  @IsOptional()
  @IsUUID()
  leadId?: string;
  @Field(() => HrProjectStatus, {
    nullable: true,
    description: 'Where the project stands (default PLANNING).',
  })
  status?: HrProjectStatus;
  @Field(() => [String], { nullable: true, description: 'Free labels.' })
  @IsOptional()
  @ArrayMaxSize(100)
  @MaxLength(100, { each: true })
  tags?: string[];
  @Field(() => [ID], {
    nullable: true,
    description: 'Ids of the employees on the project; `teamMembers` are those employees.',
  })
  @IsOptional()
  @ArrayMaxSize(1000)
  @IsUUID('all', { each: true })
  teamMemberIds?: string[];
  @Field(() => LocalDateResolver, { nullable: true, description: 'When the project starts.' })
  startDate?: string;
  @Field(() => LocalDateResolver, {
    nullable: true,
    description: 'When the project ends; not before the start (400).',
  })
  endDate?: string;
  @Field(() => Int, {
    nullable: true,
    description: 'Length of a sprint in days, unless a sprint says otherwise.',
  })
  @IsOptional()
  @Min(1)
  defaultSprintDurationDays?: number;
  @Field(() => Float, { nullable: true, description: 'Hourly rate charged for work on the project.' })
  @IsOptional()
  @Min(0)
  hourlyRate?: number;
  @Field(() => FileAsset, { nullable: true, description: 'Picture of the project.' }) picture?: FileAsset;
}

@InputType({ description: 'Changes to an HR project; absent fields stay as they are.' })
export class UpdateHrProjectInput extends CreateHrProjectInput {
  @Field(() => String, { nullable: true, description: 'Name of the project.' })
  @NotNullWhenGiven()
  @Length(1, 200)
  override name!: string;
  @Field(() => HrProjectStatus, {
    nullable: true,
    description: 'Where the project stands (default PLANNING).',
  })
  @NotNullWhenGiven()
  override status?: HrProjectStatus;
}

export const hrProjects = defineGroup({
  entity: HrProject,
  name: 'HrProject',
  plural: 'HrProjects',
  resource: 'PROJECTS',
  createInput: CreateHrProjectInput,
  updateInput: UpdateHrProjectInput,
  searchable: ['name', 'code', 'description'],
  filterable: [
    ...AUDIT_FIELDS,
    'name',
    'code',
    'description',
    'color',
    'clientId',
    'leadId',
    'status',
    'tags',
    'teamMemberIds',
    'startDate',
    'endDate',
    'defaultSprintDurationDays',
    'hourlyRate',
  ],
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
