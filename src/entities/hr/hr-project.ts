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

@Entity({ tableName: 'hr_project' })
@Index({ name: 'hr_project_tenant_name_idx', properties: ['tenantId', 'name'] })
@Index({ name: 'hr_project_tenant_code_idx', properties: ['tenantId', 'code'] })
@Index({ name: 'hr_project_tenant_lead_id_idx', properties: ['tenantId', 'leadId'] })
@Index({ name: 'hr_project_tenant_status_idx', properties: ['tenantId', 'status'] })
@ObjectType({ description: 'A planned project: epics, features and tasks, and the people on it.' })
export class HrProject extends Audited {
  @Property({ type: 'text' })
  @Field(() => String, { description: 'Name of the project.' })
  name!: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'Short code of the project.' })
  code?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'What the project is about.' })
  description?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'Colour shown for the project (CSS colour).' })
  color?: string;

  /** The customer the project is for. */
  @Property({ type: 'uuid', nullable: true })
  @Field(() => ID, { nullable: true, description: 'Id of the client the project is for.' })
  clientId?: string;

  /** The employee leading the project; `lead` shows them. */
  @Property({ type: 'uuid', nullable: true })
  @Field(() => ID, {
    nullable: true,
    description: 'Id of the employee who leads the project; `lead` is that employee.',
  })
  leadId?: string;

  @Enum({ items: () => HrProjectStatus })
  @Field(() => HrProjectStatus, { description: 'Where the project stands (default PLANNING).' })
  status: HrProjectStatus = HrProjectStatus.PLANNING;

  @Property({ type: 'text[]' })
  @Field(() => [String], { description: 'Free labels.' })
  tags: string[] = [];

  /** Employee ids; `teamMembers` shows them. */
  @Property({ type: 'text[]' })
  @Field(() => [ID], {
    description: 'Ids of the employees on the project; `teamMembers` are those employees.',
  })
  teamMemberIds: string[] = [];

  @Property({ type: 'date', nullable: true })
  @Field(() => LocalDateResolver, { nullable: true, description: 'When the project starts.' })
  startDate?: string;

  @Property({ type: 'date', nullable: true })
  @Field(() => LocalDateResolver, {
    nullable: true,
    description: 'When the project ends; not before the start (400).',
  })
  endDate?: string;

  @Property({ type: 'integer', nullable: true })
  @Field(() => Int, {
    nullable: true,
    description: 'Length of a sprint in days, unless a sprint says otherwise.',
  })
  defaultSprintDurationDays?: number;

  @DecimalColumn(14, 2, { description: 'Hourly rate charged for work on the project.' })
  hourlyRate?: number;

  @Property({ type: 'json', nullable: true })
  @Field(() => FileAsset, { nullable: true, description: 'Picture of the project.' })
  picture?: FileAsset;
}
