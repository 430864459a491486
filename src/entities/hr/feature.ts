import { Entity, Enum, Index, Property } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Audited } from '../tenant-scoped';

export enum FeatureStatus {
  BACKLOG = 'BACKLOG',
  READY = 'READY',
  IN_PROGRESS = 'IN_PROGRESS',
  DONE = 'DONE',
}
registerEnumType(FeatureStatus, {
  name: 'FeatureStatus',
  description: 'Where a feature stands.',
  valuesConfig: {
    BACKLOG: { description: 'Not planned yet (the default).' },
    READY: { description: 'Ready to be worked on.' },
    IN_PROGRESS: { description: 'Being worked on.' },
    DONE: { description: 'Done.' },
  },
});

/** The specification names only LOW; the rest of the scale is ours. */
export enum FeaturePriority {
  LOW = 'LOW',
  MEDIUM = 'MEDIUM',
  HIGH = 'HIGH',
  CRITICAL = 'CRITICAL',
}
registerEnumType(FeaturePriority, {
  name: 'FeaturePriority',
  description: 'How urgent a feature is.',
  valuesConfig: {
    LOW: { description: 'Low.' },
    MEDIUM: { description: 'Medium.' },
    HIGH: { description: 'High.' },
    CRITICAL: { description: 'Critical.' },
  },
});

/** What Feature fields mean, shared with the inputs that set them. */
export const FEATURE_DOCS = {
  name: 'Name of the feature.',
  description: 'What the feature is about.',
  epicId: 'Id of the epic the feature belongs to; its tasks follow it when it changes.',
  priority: 'How important the feature is.',
  status: 'Where the feature stands (default BACKLOG).',
  tags: 'Free labels.',
  estimatedPoints: 'Estimated effort in story points.',
} as const;

@Entity({ tableName: 'feature' })
@Index({ name: 'feature_tenant_name_idx', properties: ['tenantId', 'name'] })
@Index({ name: 'feature_tenant_epic_id_idx', properties: ['tenantId', 'epicId'] })
@Index({ name: 'feature_tenant_status_idx', properties: ['tenantId', 'status'] })
@Index({ name: 'feature_tenant_priority_idx', properties: ['tenantId', 'priority'] })
@ObjectType({ description: 'A deliverable part of an epic, broken down into tasks (HR planning).' })
export class Feature extends Audited {
  @Property({ type: 'text' })
  @Field(() => String, { description: FEATURE_DOCS.name })
  name!: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: FEATURE_DOCS.description })
  description?: string;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => ID, {
    nullable: true,
    description: FEATURE_DOCS.epicId,
  })
  epicId?: string;

  @Enum({ items: () => FeaturePriority, nullable: true })
  @Field(() => FeaturePriority, { nullable: true, description: FEATURE_DOCS.priority })
  priority?: FeaturePriority;

  @Enum({ items: () => FeatureStatus })
  @Field(() => FeatureStatus, { description: FEATURE_DOCS.status })
  status: FeatureStatus = FeatureStatus.BACKLOG;

  @Property({ type: 'text[]' })
  @Field(() => [String], { description: FEATURE_DOCS.tags })
  tags: string[] = [];

  @Property({ type: 'integer', nullable: true })
  @Field(() => Int, { nullable: true, description: FEATURE_DOCS.estimatedPoints })
  estimatedPoints?: number;
}
