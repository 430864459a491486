import { Field, ID, InputType, Int } from 'type-graphql';
import { LocalDateResolver } from 'graphql-scalars';
import { ArrayMaxSize, IsOptional, IsUUID, Length, MaxLength } from 'class-validator';
import { Epic, EpicStatus } from '../../entities/hr/epic';
import { defineGroup } from '../../family/group';
import { FamilyService } from '../../family/service';
import { hrProjectService } from './hr-projects';
import { checkPeriod, fillDefaults, NotNullWhenGiven } from './input-rules';
import { AUDIT_FIELDS } from '../../family/fields';
import { checkRefs, refsIn } from '../../family/references';
import { Employee } from '../../entities/reference/employee';
import { moveTasks } from './task-placement';

@InputType({ description: 'A new epic.' })
export class CreateEpicInput {
  @Field(() => String, { description: 'Name of the epic.' }) @Length(1, 200) name!: string;
  @Field(() => String, { description: 'What the epic is about.', nullable: true })
  @IsOptional()
  @MaxLength(5000)
  description?: string;
  @Field(() => String, { description: 'Colour shown for the epic (CSS colour).', nullable: true })
  @IsOptional()
  @MaxLength(50)
  color?: string;
  @Field(() => ID, {
    description: 'Id of the employee who owns the epic; `owner` is that employee.',
    nullable: true,
  })
  @IsOptional()
  @IsUUID()
  ownerId?: string;
  @Field(() => ID, {
    description: 'Id of the HR project the epic belongs to; limits who sees it (project access).',
    nullable: true,
  })
  @IsOptional()
  @IsUUID()
  projectId?: string;
  @Field(() => Int, { description: 'Priority as an integer; higher is more important.', nullable: true })
  priority?: number;
  @Field(() => EpicStatus, { description: 'Where the epic stands (default PLANNING).', nullable: true })
  status?: EpicStatus;
  @Field(() => [String], { description: 'Free labels.', nullable: true })
  @IsOptional()
  @ArrayMaxSize(100)
  @MaxLength(100, { each: true })
  tags?: string[];
  @Field(() => LocalDateResolver, { description: 'When work should start.', nullable: true })
  targetStartDate?: string;
  @Field(() => LocalDateResolver, {
    description: 'When work should end; not before the start (400).',
    nullable: true,
  })
  targetEndDate?: string;
}

@InputType({ description: 'Changes to an epic; absent fields stay as they are.' })
export class UpdateEpicInput extends CreateEpicInput {
  @Field(() => String, { description: 'Name of the epic.', nullable: true })
  @NotNullWhenGiven()
  @Length(1, 200)
  override name!: string;
  @Field(() => EpicStatus, { description: 'Where the epic stands (default PLANNING).', nullable: true })
  @NotNullWhenGiven()
  override status?: EpicStatus;
}

export const epics = defineGroup({
  entity: Epic,
  name: 'Epic',
  plural: 'Epics',
  resource: 'EPICS',
  createInput: CreateEpicInput,
  updateInput: UpdateEpicInput,
  searchable: ['name', 'description'],
  filterable: [
    ...AUDIT_FIELDS,
    'name',
    'description',
    'color',
    'ownerId',
    'projectId',
    'priority',
    'status',
    'tags',
    'targetStartDate',
    'targetEndDate',
  ],
  scope: 'projectId',
  async beforeSave(ctx, epic, input, isNew) {
    fillDefaults(epic, { status: EpicStatus.PLANNING, tags: [] });
    checkPeriod(epic.targetStartDate, epic.targetEndDate, ['targetStartDate', 'targetEndDate']);
    await checkRefs(
      ctx,
      400,
      refsIn(input, [
        ['projectId', hrProjectService],
        ['ownerId', Employee],
      ]),
    );
    if (!isNew && input.projectId !== undefined)
      await moveTasks(ctx, { epicId: epic.id }, { projectId: epic.projectId ?? null });
  },
});

/** The family operations of epics, for this domain's own rules and queries. */
export const epicService = new FamilyService(epics);
