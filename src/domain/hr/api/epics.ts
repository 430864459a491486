import { ID } from 'type-graphql';
import { Epic, EpicStatus } from '../entities/epic';
import { defineGroup } from '../../../family/group';
import { FamilyService } from '../../../family/service';
import { checkPeriod, fillDefaults } from '../input-rules';
import { checkRefs, refsIn } from '../../../family/references';
import { Employee } from '../../reference/entities/employee';
import { moveTasks } from '../task-placement';
import { featureCountSql, taskProgressSql, taskTallySql } from '../progress-repository';
import { hrProjectService } from './hr-projects';
import { CreateEpicInput, UpdateEpicInput } from './epic-inputs';

export const epics = defineGroup({
  entity: Epic,
  name: 'Epic',
  plural: 'Epics',
  resource: 'EPICS',
  createInput: CreateEpicInput,
  updateInput: UpdateEpicInput,
  searchable: ['name', 'description'],
  lists: [
    {
      name: 'epicsByOwner',
      description: 'The epics an employee owns, oldest first.',
      field: 'ownerId',
      arg: 'ownerId',
      argDescription: 'Id of the employee.',
      type: () => ID,
    },
    {
      name: 'epicsByProject',
      description: 'The epics of an HR project, oldest first.',
      field: 'projectId',
      arg: 'projectId',
      argDescription: 'Id of the HR project.',
      type: () => ID,
    },
    {
      name: 'epicsByStatus',
      description: 'The epics in a status, oldest first.',
      field: 'status',
      arg: 'status',
      argDescription: 'The status.',
      type: () => EpicStatus,
    },
  ],
  derived: { featureCount: featureCountSql, ...taskProgressSql('epic_id') },
  joined: { taskTally: taskTallySql('epic_id') },
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
