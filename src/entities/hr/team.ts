import { Entity, Enum, Index, Property } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Audited } from '../tenant-scoped';

export enum TeamStatus {
  ACTIVE = 'ACTIVE',
  ARCHIVED = 'ARCHIVED',
}
registerEnumType(TeamStatus, {
  name: 'TeamStatus',
  description: 'Whether a team still works.',
  valuesConfig: {
    ACTIVE: { description: 'Working (the default); counts as active.' },
    ARCHIVED: { description: 'No longer working.' },
  },
});

/** What Team fields mean, shared with the inputs that set them. */
export const TEAM_DOCS = {
  name: 'Name of the team.',
  description: 'What the team does.',
  color: 'Colour shown for the team (CSS colour).',
  dailyCapacity: 'Hours the team can work per day.',
  memberIds: 'Ids of the employees in the team; `members` are those employees.',
  status: 'Whether the team is working (default ACTIVE).',
} as const;

@Entity({ tableName: 'team' })
@Index({ name: 'team_tenant_name_idx', properties: ['tenantId', 'name'] })
@Index({ name: 'team_tenant_status_idx', properties: ['tenantId', 'status'] })
@ObjectType({ description: 'A group of employees that plans work together (HR planning).' })
export class Team extends Audited {
  @Property({ type: 'text' })
  @Field(() => String, { description: TEAM_DOCS.name })
  name!: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: TEAM_DOCS.description })
  description?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: TEAM_DOCS.color })
  color?: string;

  /** Hours the team can work per day, for capacity planning. */
  @Property({ type: 'integer', nullable: true })
  @Field(() => Int, { nullable: true, description: TEAM_DOCS.dailyCapacity })
  dailyCapacity?: number;

  /** Employee ids; `members` shows them. */
  @Property({ type: 'text[]' })
  @Field(() => [ID], { description: TEAM_DOCS.memberIds })
  memberIds: string[] = [];

  @Enum({ items: () => TeamStatus })
  @Field(() => TeamStatus, { description: TEAM_DOCS.status })
  status: TeamStatus = TeamStatus.ACTIVE;
}
