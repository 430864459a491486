import { Entity, Enum, Index, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { Audited } from '../tenant-scoped';

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
@Index({ name: 'task_tenant_title_idx', properties: ['tenantId', 'title'] })
@Index({ name: 'task_tenant_status_idx', properties: ['tenantId', 'status'] })
@Index({ name: 'task_tenant_feature_id_idx', properties: ['tenantId', 'featureId'] })
@Index({ name: 'task_tenant_epic_id_idx', properties: ['tenantId', 'epicId'] })
@Index({ name: 'task_tenant_project_id_idx', properties: ['tenantId', 'projectId'] })
@Index({ name: 'task_tenant_assignee_id_idx', properties: ['tenantId', 'assigneeId'] })
@ObjectType({ description: 'A unit of work of a feature, epic or project (HR planning).' })
export class Task extends Audited {
  @Property({ type: 'text' })
  @Field(() => String, { description: TASK_DOCS.title })
  title!: string;

  @Enum({ items: () => TaskStatus })
  @Field(() => TaskStatus, { description: TASK_DOCS.status })
  status: TaskStatus = TaskStatus.TODO;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => ID, {
    nullable: true,
    description: TASK_DOCS.featureId,
  })
  featureId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => ID, {
    nullable: true,
    description: TASK_DOCS.epicId,
  })
  epicId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => ID, {
    nullable: true,
    description: TASK_DOCS.projectId,
  })
  projectId?: string | null;

  /** The employee doing the task. */
  @Property({ type: 'uuid', nullable: true })
  @Field(() => ID, { nullable: true, description: TASK_DOCS.assigneeId })
  assigneeId?: string;
}
