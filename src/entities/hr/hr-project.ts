import { Entity, Enum, Index, Property } from '@mikro-orm/core';
import { DecimalColumn } from '../columns';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { LocalDateResolver } from 'graphql-scalars';
import { Audited } from '../tenant-scoped';
import { FileAsset } from '../shared';

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
@Index({ name: 'hr_project_tenant_name_idx', properties: ['tenantId', 'name'] })
@Index({ name: 'hr_project_tenant_code_idx', properties: ['tenantId', 'code'] })
@Index({ name: 'hr_project_tenant_lead_id_idx', properties: ['tenantId', 'leadId'] })
@Index({ name: 'hr_project_tenant_status_idx', properties: ['tenantId', 'status'] })
@ObjectType({ description: 'A planned project: epics, features and tasks, and the people on it.' })
export class HrProject extends Audited {
  @Property({ type: 'text' })
  @Field(() => String, { description: HR_PROJECT_DOCS.name })
  name!: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: HR_PROJECT_DOCS.code })
  code?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: HR_PROJECT_DOCS.description })
  description?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: HR_PROJECT_DOCS.color })
  color?: string;

  /** The customer the project is for. */
  @Property({ type: 'uuid', nullable: true })
  @Field(() => ID, { nullable: true, description: HR_PROJECT_DOCS.clientId })
  clientId?: string;

  /** The employee leading the project; `lead` shows them. */
  @Property({ type: 'uuid', nullable: true })
  @Field(() => ID, {
    nullable: true,
    description: HR_PROJECT_DOCS.leadId,
  })
  leadId?: string;

  @Enum({ items: () => HrProjectStatus })
  @Field(() => HrProjectStatus, { description: HR_PROJECT_DOCS.status })
  status: HrProjectStatus = HrProjectStatus.PLANNING;

  @Property({ type: 'text[]' })
  @Field(() => [String], { description: HR_PROJECT_DOCS.tags })
  tags: string[] = [];

  /** Employee ids; `teamMembers` shows them. */
  @Property({ type: 'text[]' })
  @Field(() => [ID], {
    description: HR_PROJECT_DOCS.teamMemberIds,
  })
  teamMemberIds: string[] = [];

  @Property({ type: 'date', nullable: true })
  @Field(() => LocalDateResolver, { nullable: true, description: HR_PROJECT_DOCS.startDate })
  startDate?: string;

  @Property({ type: 'date', nullable: true })
  @Field(() => LocalDateResolver, {
    nullable: true,
    description: HR_PROJECT_DOCS.endDate,
  })
  endDate?: string;

  @Property({ type: 'integer', nullable: true })
  @Field(() => Int, {
    nullable: true,
    description: HR_PROJECT_DOCS.defaultSprintDurationDays,
  })
  defaultSprintDurationDays?: number;

  @DecimalColumn(14, 2, { description: 'Hourly rate charged for work on the project.' })
  hourlyRate?: number;

  @Property({ type: 'json', nullable: true })
  @Field(() => FileAsset, { nullable: true, description: HR_PROJECT_DOCS.picture })
  picture?: FileAsset;
}
