import { HrProject, HrProjectStatus } from '../../entities/hr/hr-project';
import { defineGroup } from '../../family/group';
import { FamilyService } from '../../family/service';
import { checkPeriod, fillDefaults } from '../../domain/hr/input-rules';
import { checkRefs, refsIn, refsOf } from '../../family/references';
import { Customer } from '../../entities/reference/customer';
import { Employee } from '../../entities/reference/employee';
import { epicCountSql, taskProgressSql, taskTallySql } from '../../domain/hr/progress-sql';
import { CreateHrProjectInput, UpdateHrProjectInput } from './hr-project-inputs';

export const hrProjects = defineGroup({
  entity: HrProject,
  name: 'HrProject',
  plural: 'HrProjects',
  resource: 'PROJECTS',
  createInput: CreateHrProjectInput,
  updateInput: UpdateHrProjectInput,
  searchable: ['name', 'code', 'description'],
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
