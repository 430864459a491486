import type { Context } from '../../../context';
import { Task, TaskStatus } from '../entities/task';
import { defineGroup } from '../../../family/group';
import { FamilyService } from '../../../family/service';
import { fillDefaults } from '../input-rules';
import { agree } from '../task-placement';
import { requireRef } from '../../../family/references';
import { epicService } from './epics';
import { featureService } from './features';
import { hrProjectService } from './hr-projects';
import { CreateTaskInput, UpdateTaskInput } from './task-inputs';

/** Takes the task's epic from its feature and its project from its epic, checking each reference. */
async function place(ctx: Context, task: Task, input: Partial<CreateTaskInput>): Promise<void> {
  if (task.featureId) {
    const feature = await requireRef(ctx, 400, 'featureId', task.featureId, featureService);
    agree('epicId', input.epicId, feature.epicId ?? null, 'feature');
    task.epicId = feature.epicId ?? null;
  }
  if (task.epicId) {
    const epic = await requireRef(ctx, 400, 'epicId', task.epicId, epicService);
    agree('projectId', input.projectId, epic.projectId ?? null, 'epic');
    task.projectId = epic.projectId ?? null;
  } else if (task.projectId) {
    await requireRef(ctx, 400, 'projectId', task.projectId, hrProjectService);
  }
}

export const tasks = defineGroup({
  entity: Task,
  name: 'Task',
  plural: 'Tasks',
  resource: 'TASKS',
  createInput: CreateTaskInput,
  updateInput: UpdateTaskInput,
  searchable: ['title'],
  scope: 'projectId',
  async beforeSave(ctx, task, input, isNew) {
    fillDefaults(task, { status: TaskStatus.TODO });
    const moved = ['featureId', 'epicId', 'projectId'].some((f) => f in input);
    if (isNew || moved) await place(ctx, task, input);
  },
});

/** The family operations of tasks, for this domain's own rules and queries. */
export const taskService = new FamilyService(tasks);
