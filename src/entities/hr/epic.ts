import { Entity, Enum, Index, Property } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { LocalDateResolver } from 'graphql-scalars';
import { Audited } from '../tenant-scoped';

export enum EpicStatus {
  PLANNING = 'PLANNING',
  IN_PROGRESS = 'IN_PROGRESS',
  ON_HOLD = 'ON_HOLD',
  COMPLETED = 'COMPLETED',
  CANCELLED = 'CANCELLED',
}
registerEnumType(EpicStatus, {
  name: 'EpicStatus',
  description: 'Where an epic stands.',
  valuesConfig: {
    PLANNING: { description: 'Being planned (the default); counts as active.' },
    IN_PROGRESS: { description: 'Being worked on; counts as active.' },
    ON_HOLD: { description: 'Paused.' },
    COMPLETED: { description: 'Done.' },
    CANCELLED: { description: 'Will not be done.' },
  },
});

/** What Epic fields mean, shared with the inputs that set them. */
export const EPIC_DOCS = {
  name: 'Name of the epic.',
  description: 'What the epic is about.',
  color: 'Colour shown for the epic (CSS colour).',
  ownerId: 'Id of the employee who owns the epic; `owner` is that employee.',
  projectId: 'Id of the HR project the epic belongs to; limits who sees it (project access).',
  priority: 'Priority, an integer.',
  status: 'Where the epic stands (default PLANNING).',
  tags: 'Free labels.',
  targetStartDate: 'When work should start.',
  targetEndDate: 'When work should end; not before the start (400).',
} as const;

@Entity({ tableName: 'epic' })
@Index({ name: 'epic_tenant_name_idx', properties: ['tenantId', 'name'] })
@Index({ name: 'epic_tenant_owner_id_idx', properties: ['tenantId', 'ownerId'] })
@Index({ name: 'epic_tenant_project_id_idx', properties: ['tenantId', 'projectId'] })
@Index({ name: 'epic_tenant_status_idx', properties: ['tenantId', 'status'] })
@ObjectType({ description: 'A large body of work of a project, made of features (HR planning).' })
export class Epic extends Audited {
  @Property({ type: 'text' })
  @Field(() => String, { description: EPIC_DOCS.name })
  name!: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: EPIC_DOCS.description })
  description?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: EPIC_DOCS.color })
  color?: string;

  /** The employee answerable for the epic; `owner` shows them. */
  @Property({ type: 'uuid', nullable: true })
  @Field(() => ID, {
    nullable: true,
    description: EPIC_DOCS.ownerId,
  })
  ownerId?: string;

  /** The HR project; also the data scope of the epic (and of its tasks). */
  @Property({ type: 'uuid', nullable: true })
  @Field(() => ID, {
    nullable: true,
    description: EPIC_DOCS.projectId,
  })
  projectId?: string;

  @Property({ type: 'integer', nullable: true })
  @Field(() => Int, { nullable: true, description: EPIC_DOCS.priority })
  priority?: number;

  @Enum({ items: () => EpicStatus })
  @Field(() => EpicStatus, { description: EPIC_DOCS.status })
  status: EpicStatus = EpicStatus.PLANNING;

  @Property({ type: 'text[]' })
  @Field(() => [String], { description: EPIC_DOCS.tags })
  tags: string[] = [];

  @Property({ type: 'date', nullable: true })
  @Field(() => LocalDateResolver, { nullable: true, description: EPIC_DOCS.targetStartDate })
  targetStartDate?: string;

  @Property({ type: 'date', nullable: true })
  @Field(() => LocalDateResolver, {
    nullable: true,
    description: EPIC_DOCS.targetEndDate,
  })
  targetEndDate?: string;
}
