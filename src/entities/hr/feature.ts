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

@Entity({ tableName: 'feature' })
@Index({ name: 'feature_tenant_name_idx', properties: ['tenantId', 'name'] })
@Index({ name: 'feature_tenant_epic_id_idx', properties: ['tenantId', 'epicId'] })
@Index({ name: 'feature_tenant_status_idx', properties: ['tenantId', 'status'] })
@Index({ name: 'feature_tenant_priority_idx', properties: ['tenantId', 'priority'] })
@ObjectType({ description: 'A deliverable part of an epic, broken down into tasks (HR planning).' })
export class Feature extends Audited {
  @Property({ type: 'text' })
  @Field(() => String, { description: 'Name of the feature.' })
  name!: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'What the feature is about.' })
  description?: string;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => ID, {
    nullable: true,
    description: 'Id of the epic the feature belongs to; its tasks follow it when it changes.',
  })
  epicId?: string;

  @Enum({ items: () => FeaturePriority, nullable: true })
  @Field(() => FeaturePriority, { nullable: true, description: 'How important the feature is.' })
  priority?: FeaturePriority;

  @Enum({ items: () => FeatureStatus })
  @Field(() => FeatureStatus, { description: 'Where the feature stands (default BACKLOG).' })
  status: FeatureStatus = FeatureStatus.BACKLOG;

  @Property({ type: 'text[]' })
  @Field(() => [String], { description: 'Free labels.' })
  tags: string[] = [];

  @Property({ type: 'integer', nullable: true })
  @Field(() => Int, { nullable: true, description: 'Estimated effort in story points.' })
  estimatedPoints?: number;
}
