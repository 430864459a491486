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
registerEnumType(HrProjectStatus, { name: 'HrProjectStatus', description: 'Where a project stands.' });

@Entity({ tableName: 'hr_project' })
@Index({ name: 'hr_project_tenant_name_idx', properties: ['tenantId', 'name'] })
@Index({ name: 'hr_project_tenant_code_idx', properties: ['tenantId', 'code'] })
@Index({ name: 'hr_project_tenant_lead_id_idx', properties: ['tenantId', 'leadId'] })
@Index({ name: 'hr_project_tenant_status_idx', properties: ['tenantId', 'status'] })
@ObjectType({ description: 'A planned project: epics, features and tasks, and the people on it.' })
export class HrProject extends Audited {
  @Property({ type: 'text' })
  @Field(() => String)
  name!: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  code?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  description?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  color?: string;

  /** The customer the project is for. */
  @Property({ type: 'uuid', nullable: true })
  @Field(() => ID, { nullable: true })
  clientId?: string;

  /** The employee leading the project; `lead` shows them. */
  @Property({ type: 'uuid', nullable: true })
  @Field(() => ID, { nullable: true })
  leadId?: string;

  @Enum({ items: () => HrProjectStatus })
  @Field(() => HrProjectStatus)
  status: HrProjectStatus = HrProjectStatus.PLANNING;

  @Property({ type: 'text[]' })
  @Field(() => [String])
  tags: string[] = [];

  /** Employee ids; `teamMembers` shows them. */
  @Property({ type: 'text[]' })
  @Field(() => [ID])
  teamMemberIds: string[] = [];

  @Property({ type: 'date', nullable: true })
  @Field(() => LocalDateResolver, { nullable: true })
  startDate?: string;

  @Property({ type: 'date', nullable: true })
  @Field(() => LocalDateResolver, { nullable: true })
  endDate?: string;

  @Property({ type: 'integer', nullable: true })
  @Field(() => Int, { nullable: true })
  defaultSprintDurationDays?: number;

  @DecimalColumn(14, 2)
  hourlyRate?: number;

  @Property({ type: 'json', nullable: true })
  @Field(() => FileAsset, { nullable: true })
  picture?: FileAsset;
}
