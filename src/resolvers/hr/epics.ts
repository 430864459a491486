import { Field, ID, InputType, Int } from 'type-graphql';
import { LocalDateResolver } from 'graphql-scalars';
import { ArrayMaxSize, IsOptional, IsUUID, Length, MaxLength } from 'class-validator';
import { Epic, EpicStatus, EPIC_DOCS } from '../../entities/hr/epic';
import { defineGroup } from '../../family/group';
import { FamilyService } from '../../family/service';
import { hrProjectService } from './hr-projects';
import { checkPeriod, fillDefaults, NotNullWhenGiven } from './input-rules';
import { checkRefs, refsIn } from '../../family/references';
import { Employee } from '../../entities/reference/employee';
import { moveTasks } from './task-placement';
import { featureCountSql, taskProgressSql } from './progress-sql';

@InputType({ description: 'A new epic.' })
export class CreateEpicInput {
  @Field(() => String, { description: EPIC_DOCS.name }) @Length(1, 200) name!: string;
  @Field(() => String, { nullable: true, description: EPIC_DOCS.description })
  @IsOptional()
  @MaxLength(5000)
  description?: string;
  @Field(() => String, { nullable: true, description: EPIC_DOCS.color })
  @IsOptional()
  @MaxLength(50)
  color?: string;
  @Field(() => ID, {
    nullable: true,
    description: EPIC_DOCS.ownerId,
  })
  @IsOptional()
  @IsUUID()
  ownerId?: string;
  @Field(() => ID, {
    nullable: true,
    description: EPIC_DOCS.projectId,
  })
  @IsOptional()
  @IsUUID()
  projectId?: string;
  @Field(() => Int, { nullable: true, description: EPIC_DOCS.priority })
  priority?: number;
  @Field(() => EpicStatus, { nullable: true, description: EPIC_DOCS.status })
  status?: EpicStatus;
  @Field(() => [String], { nullable: true, description: EPIC_DOCS.tags })
  @IsOptional()
  @ArrayMaxSize(100)
  @MaxLength(100, { each: true })
  tags?: string[];
  @Field(() => LocalDateResolver, { nullable: true, description: EPIC_DOCS.targetStartDate })
  targetStartDate?: string;
  @Field(() => LocalDateResolver, {
    nullable: true,
    description: EPIC_DOCS.targetEndDate,
  })
  targetEndDate?: string;
}

@InputType({ description: 'Changes to an epic; absent fields stay as they are.' })
export class UpdateEpicInput extends CreateEpicInput {
  @Field(() => String, { nullable: true, description: EPIC_DOCS.name })
  @NotNullWhenGiven()
  @Length(1, 200)
  override name!: string;
  @Field(() => EpicStatus, { nullable: true, description: EPIC_DOCS.status })
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
  derived: { featureCount: featureCountSql, ...taskProgressSql('epic_id') },
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
