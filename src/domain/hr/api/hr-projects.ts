import { ID } from 'type-graphql';
import { HrProject, HrProjectStatus } from '../entities/hr-project';
import { defineGroup } from '../../../family/group';
import { FamilyService } from '../../../family/service';
import { checkPeriod, fillDefaults } from '../input-rules';
import { checkRefs, refsIn, refsOf } from '../../../family/references';
import { Customer } from '../../reference/entities/customer';
import { Employee } from '../../reference/entities/employee';
import { epicCountSql, taskProgressSql, taskTallySql } from '../progress-repository';
import { CreateHrProjectInput, UpdateHrProjectInput } from './hr-project-inputs';

export const hrProjects = defineGroup({
  entity: HrProject,
  name: 'HrProject',
  plural: 'HrProjects',
  resource: 'PROJECTS',
  createInput: CreateHrProjectInput,
  updateInput: UpdateHrProjectInput,
  searchable: ['name', 'code', 'description'],
  lists: [
    {
      name: 'hrProjectsByLead',
      description: 'The HR projects an employee leads, oldest first.',
      field: 'leadId',
      arg: 'leadId',
      argDescription: 'Id of the employee.',
      type: () => ID,
    },
    {
      name: 'hrProjectsByStatus',
      description: 'The HR projects in a status, oldest first.',
      field: 'status',
      arg: 'status',
      argDescription: 'The status.',
      type: () => HrProjectStatus,
    },
  ],
  derived: { epicCount: epicCountSql, ...taskProgressSql('project_id') },
  joined: { taskTally: taskTallySql('project_id') },
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
