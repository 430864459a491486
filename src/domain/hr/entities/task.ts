import { Entity } from '@mikro-orm/core';
import { ObjectType, registerEnumType } from 'type-graphql';
import { Audited } from '../../../entities/tenant-scoped';
import { EnumColumn, TenantIndexes, TextColumn, UuidColumn } from '../../../entities/columns';

export enum TaskStatus {
  TODO = 'TODO',
  IN_PROGRESS = 'IN_PROGRESS',
  DONE = 'DONE',
}
registerEnumType(TaskStatus, {
  name: 'TaskStatus',
  description: 'Where a task stands.',
  valuesConfig: {
    TODO: { description: 'Not started.' },
    IN_PROGRESS: { description: 'Being worked on.' },
    DONE: { description: 'Done; counts towards progress.' },
  },
});

/** What Task fields mean, shared with the inputs that set them. */
export const TASK_DOCS = {
  title: 'What is to be done.',
  status: 'Where the task stands; DONE tasks count towards progress.',
  featureId: "Id of the feature the task belongs to; the task's epic follows from it.",
  epicId: 'Id of the epic; taken from the feature when there is one.',
  projectId: 'Id of the HR project; taken from the epic. Limits who sees the task (project access).',
  assigneeId: 'Id of the employee doing the task.',
} as const;

/**
 * A unit of work, the measure of progress of its feature, epic and project. Its epic and project
 * are stored (taken from its feature and epic) so each of the three counts with one grouped query.
 */
@Entity({ tableName: 'task' })
@TenantIndexes('task', 'title', 'status', 'featureId', 'epicId', 'projectId', 'assigneeId')
@ObjectType({ description: 'A unit of work of a feature, epic or project (HR planning).' })
export class Task extends Audited {
  @TextColumn({ nullable: false, description: TASK_DOCS.title })
  title!: string;

  @EnumColumn(() => TaskStatus, { nullable: false, description: TASK_DOCS.status })
  status: TaskStatus = TaskStatus.TODO;

  @UuidColumn({ id: true, description: TASK_DOCS.featureId })
  featureId?: string | null;

  @UuidColumn({ id: true, description: TASK_DOCS.epicId })
  epicId?: string | null;

  @UuidColumn({ id: true, description: TASK_DOCS.projectId })
  projectId?: string | null;

  /** The employee doing the task. */
  @UuidColumn({ id: true, description: TASK_DOCS.assigneeId })
  assigneeId?: string | null;
}
