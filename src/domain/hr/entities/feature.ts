import { Entity } from '@mikro-orm/core';
import { ObjectType, registerEnumType } from 'type-graphql';
import { Audited } from '../../../entities/tenant-scoped';
import {
  EnumColumn,
  IntColumn,
  TenantIndexes,
  TextColumn,
  TextListColumn,
  UuidColumn,
} from '../../../entities/columns';

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
@TenantIndexes('feature', 'name', 'epicId', 'status', 'priority')
@ObjectType({ description: 'A deliverable part of an epic, broken down into tasks (HR planning).' })
export class Feature extends Audited {
  @TextColumn({ nullable: false, description: FEATURE_DOCS.name })
  name!: string;

  @TextColumn({ description: FEATURE_DOCS.description })
  description?: string | null;

  @UuidColumn({ id: true, description: FEATURE_DOCS.epicId })
  epicId?: string | null;

  @EnumColumn(() => FeaturePriority, { description: FEATURE_DOCS.priority })
  priority?: FeaturePriority | null;

  @EnumColumn(() => FeatureStatus, { nullable: false, description: FEATURE_DOCS.status })
  status: FeatureStatus = FeatureStatus.BACKLOG;

  @TextListColumn({ description: FEATURE_DOCS.tags })
  tags: string[] = [];

  @IntColumn({ description: FEATURE_DOCS.estimatedPoints })
  estimatedPoints?: number | null;
}
