import { Entity } from '@mikro-orm/core';
import { ObjectType, registerEnumType } from 'type-graphql';
import { Audited } from '../../../entities/tenant-scoped';
import {
  DateColumn,
  EnumColumn,
  IntColumn,
  TenantIndexes,
  TextColumn,
  TextListColumn,
  UuidColumn,
} from '../../../entities/columns';

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
@TenantIndexes('epic', 'name', 'ownerId', 'projectId', 'status')
@ObjectType({ description: 'A large body of work of a project, made of features (HR planning).' })
export class Epic extends Audited {
  @TextColumn({ nullable: false, description: EPIC_DOCS.name })
  name!: string;

  @TextColumn({ description: EPIC_DOCS.description })
  description?: string | null;

  @TextColumn({ description: EPIC_DOCS.color })
  color?: string | null;

  /** The employee answerable for the epic; `owner` shows them. */
  @UuidColumn({ id: true, description: EPIC_DOCS.ownerId })
  ownerId?: string | null;

  /** The HR project; also the data scope of the epic (and of its tasks). */
  @UuidColumn({ id: true, description: EPIC_DOCS.projectId })
  projectId?: string | null;

  @IntColumn({ description: EPIC_DOCS.priority })
  priority?: number | null;

  @EnumColumn(() => EpicStatus, { nullable: false, description: EPIC_DOCS.status })
  status: EpicStatus = EpicStatus.PLANNING;

  @TextListColumn({ description: EPIC_DOCS.tags })
  tags: string[] = [];

  @DateColumn({ description: EPIC_DOCS.targetStartDate })
  targetStartDate?: string | null;

  @DateColumn({ description: EPIC_DOCS.targetEndDate })
  targetEndDate?: string | null;
}
