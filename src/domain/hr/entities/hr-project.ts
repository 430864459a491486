import { Entity } from '@mikro-orm/core';
import { ObjectType, registerEnumType } from 'type-graphql';
import {
  DateColumn,
  DecimalColumn,
  EnumColumn,
  IntColumn,
  JsonColumn,
  TenantIndexes,
  TextColumn,
  TextListColumn,
  UuidColumn,
} from '../../../entities/columns';
import { Audited } from '../../../entities/tenant-scoped';
import { FileAsset } from '../../../entities/shared';

export enum HrProjectStatus {
  PLANNING = 'PLANNING',
  ACTIVE = 'ACTIVE',
  ON_HOLD = 'ON_HOLD',
  COMPLETED = 'COMPLETED',
  ARCHIVED = 'ARCHIVED',
}
registerEnumType(HrProjectStatus, {
  name: 'HrProjectStatus',
  description: 'Where a project stands.',
  valuesConfig: {
    PLANNING: { description: 'Being planned (the default).' },
    ACTIVE: { description: 'Running; counts as active.' },
    ON_HOLD: { description: 'Paused.' },
    COMPLETED: { description: 'Finished.' },
    ARCHIVED: { description: 'Kept for reference only.' },
  },
});

/** What HrProject fields mean, shared with the inputs that set them. */
export const HR_PROJECT_DOCS = {
  name: 'Name of the project.',
  code: 'Short code of the project.',
  description: 'What the project is about.',
  color: 'Colour shown for the project (CSS colour).',
  clientId: 'Id of the client the project is for.',
  leadId: 'Id of the employee who leads the project; `lead` is that employee.',
  status: 'Where the project stands (default PLANNING).',
  tags: 'Free labels.',
  teamMemberIds: 'Ids of the employees on the project; `teamMembers` are those employees.',
  startDate: 'When the project starts.',
  endDate: 'When the project ends; not before the start (400).',
  defaultSprintDurationDays: 'Length of a sprint in days, unless a sprint says otherwise.',
  picture: 'Picture of the project.',
} as const;

@Entity({ tableName: 'hr_project' })
@TenantIndexes('hr_project', 'name', 'code', 'leadId', 'status')
@ObjectType({ description: 'A planned project: epics, features and tasks, and the people on it.' })
export class HrProject extends Audited {
  @TextColumn({ nullable: false, description: HR_PROJECT_DOCS.name })
  name!: string;

  @TextColumn({ description: HR_PROJECT_DOCS.code })
  code?: string | null;

  @TextColumn({ description: HR_PROJECT_DOCS.description })
  description?: string | null;

  @TextColumn({ description: HR_PROJECT_DOCS.color })
  color?: string | null;

  /** The customer the project is for. */
  @UuidColumn({ id: true, description: HR_PROJECT_DOCS.clientId })
  clientId?: string | null;

  /** The employee leading the project; `lead` shows them. */
  @UuidColumn({ id: true, description: HR_PROJECT_DOCS.leadId })
  leadId?: string | null;

  @EnumColumn(() => HrProjectStatus, { nullable: false, description: HR_PROJECT_DOCS.status })
  status: HrProjectStatus = HrProjectStatus.PLANNING;

  @TextListColumn({ description: HR_PROJECT_DOCS.tags })
  tags: string[] = [];

  /** Employee ids; `teamMembers` shows them. */
  @TextListColumn({ id: true, description: HR_PROJECT_DOCS.teamMemberIds })
  teamMemberIds: string[] = [];

  @DateColumn({ description: HR_PROJECT_DOCS.startDate })
  startDate?: string | null;

  @DateColumn({ description: HR_PROJECT_DOCS.endDate })
  endDate?: string | null;

  @IntColumn({ description: HR_PROJECT_DOCS.defaultSprintDurationDays })
  defaultSprintDurationDays?: number | null;

  @DecimalColumn(14, 2, { description: 'Hourly rate charged for work on the project.' })
  hourlyRate?: number | null;

  @JsonColumn(() => FileAsset, { description: HR_PROJECT_DOCS.picture })
  picture?: FileAsset | null;
}
