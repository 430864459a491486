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
registerEnumType(EpicStatus, { name: 'EpicStatus', description: 'Where an epic stands.' });

@Entity({ tableName: 'epic' })
@Index({ name: 'epic_tenant_name_idx', properties: ['tenantId', 'name'] })
@Index({ name: 'epic_tenant_owner_id_idx', properties: ['tenantId', 'ownerId'] })
@Index({ name: 'epic_tenant_project_id_idx', properties: ['tenantId', 'projectId'] })
@Index({ name: 'epic_tenant_status_idx', properties: ['tenantId', 'status'] })
@ObjectType({ description: 'A large body of work of a project, made of features (HR planning).' })
export class Epic extends Audited {
  @Property({ type: 'text' })
  @Field(() => String)
  name!: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  description?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  color?: string;

  /** The employee answerable for the epic; `owner` shows them. */
  @Property({ type: 'uuid', nullable: true })
  @Field(() => ID, { nullable: true })
  ownerId?: string;

  /** The HR project; also the data scope of the epic (and of its tasks). */
  @Property({ type: 'uuid', nullable: true })
  @Field(() => ID, { nullable: true })
  projectId?: string;

  @Property({ type: 'integer', nullable: true })
  @Field(() => Int, { nullable: true })
  priority?: number;

  @Enum({ items: () => EpicStatus })
  @Field(() => EpicStatus)
  status: EpicStatus = EpicStatus.PLANNING;

  @Property({ type: 'text[]' })
  @Field(() => [String])
  tags: string[] = [];

  @Property({ type: 'date', nullable: true })
  @Field(() => LocalDateResolver, { nullable: true })
  targetStartDate?: string;

  @Property({ type: 'date', nullable: true })
  @Field(() => LocalDateResolver, { nullable: true })
  targetEndDate?: string;
}
