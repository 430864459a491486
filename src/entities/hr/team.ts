import { Entity, Enum, Index, Property } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Audited } from '../tenant-scoped';

export enum TeamStatus {
  ACTIVE = 'ACTIVE',
  ARCHIVED = 'ARCHIVED',
}
registerEnumType(TeamStatus, { name: 'TeamStatus', description: 'Whether a team still works.' });

@Entity({ tableName: 'team' })
@Index({ name: 'team_tenant_name_idx', properties: ['tenantId', 'name'] })
@Index({ name: 'team_tenant_status_idx', properties: ['tenantId', 'status'] })
@ObjectType({ description: 'A group of employees that plans work together (HR planning).' })
export class Team extends Audited {
  @Property({ type: 'text' })
  @Field(() => String)
  name!: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  description?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  color?: string;

  /** Hours the team can work per day, for capacity planning. */
  @Property({ type: 'integer', nullable: true })
  @Field(() => Int, { nullable: true })
  dailyCapacity?: number;

  /** Employee ids; `members` shows them. */
  @Property({ type: 'text[]' })
  @Field(() => [ID])
  memberIds: string[] = [];

  @Enum({ items: () => TeamStatus })
  @Field(() => TeamStatus)
  status: TeamStatus = TeamStatus.ACTIVE;
}
