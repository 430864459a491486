import { Entity } from '@mikro-orm/core';
import { ObjectType, registerEnumType } from 'type-graphql';
import { Audited } from '../../../entities/tenant-scoped';
import { EnumColumn, IntColumn, TenantIndexes, TextColumn, TextListColumn } from '../../../entities/columns';

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
@TenantIndexes('team', 'name', 'status')
@ObjectType({ description: 'A group of employees that plans work together (HR planning).' })
export class Team extends Audited {
  @TextColumn({ nullable: false, description: TEAM_DOCS.name })
  name!: string;

  @TextColumn({ description: TEAM_DOCS.description })
  description?: string | null;

  @TextColumn({ description: TEAM_DOCS.color })
  color?: string | null;

  /** Hours the team can work per day, for capacity planning. */
  @IntColumn({ description: TEAM_DOCS.dailyCapacity })
  dailyCapacity?: number | null;

  /** Employee ids; `members` shows them. */
  @TextListColumn({ id: true, description: TEAM_DOCS.memberIds })
  memberIds: string[] = [];

  @EnumColumn(() => TeamStatus, { nullable: false, description: TEAM_DOCS.status })
  status: TeamStatus = TeamStatus.ACTIVE;
}
