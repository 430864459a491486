import { Entity, Enum, Property } from '@mikro-orm/core';
import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from '../../graphql/date-time';
import { Audited } from '../tenant-scoped';
import { Address } from '../shared';
import { TenantIndexes } from './tenant-indexes';

export enum LeadStatus {
  NEW = 'NEW',
  CONTACTED = 'CONTACTED',
  QUALIFIED = 'QUALIFIED',
  PROPOSAL = 'PROPOSAL',
  NEGOTIATION = 'NEGOTIATION',
  WON = 'WON',
  LOST = 'LOST',
  DISQUALIFIED = 'DISQUALIFIED',
}
registerEnumType(LeadStatus, {
  name: 'LeadStatus',
  description: 'Where a lead stands; any status may follow any other.',
});

@Entity({ tableName: 'lead' })
@TenantIndexes(
  'lead',
  'firstName',
  'lastName',
  'companyName',
  'email',
  'status',
  'source',
  'industry',
  'customerId',
  'opportunityId',
  'ownerId',
  'subsidiaryId',
  'qualifiedDate',
  'nextActionDueDate',
  'hasAcceptedQuote',
)
@ObjectType({ description: 'A prospective customer (CRM lead).' })
export class Lead extends Audited {
  @Enum({ items: () => LeadStatus })
  @Field(() => LeadStatus)
  status: LeadStatus = LeadStatus.NEW;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  firstName?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  lastName?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  companyName?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  companyWebsite?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  email?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  phone?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  industry?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  instagramHandle?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  interest?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  message?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  nextAction?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true })
  nextActionDueDate?: Date | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  note?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  pageUrl?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  preferredLanguage?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  qualificationNotes?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: 'Id of the user who qualified the lead.' })
  qualifiedBy?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true })
  qualifiedDate?: Date | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  referrerUrl?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  source?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  sourceDetail?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  utmCampaign?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  utmContent?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  utmMedium?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  utmSource?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  utmTerm?: string | null;

  @Property({ type: 'boolean' })
  @Field(() => Boolean)
  hasAcceptedQuote: boolean = false;

  @Property({ type: 'json', nullable: true })
  @Field(() => Address, { nullable: true })
  address?: Address | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true })
  customerId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true })
  opportunityId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: 'Id of the user responsible for the lead.' })
  ownerId?: string | null;

  /** Leads with a subsidiary are visible only to users with access to it (decisions.md "Data scope"). */
  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true })
  subsidiaryId?: string | null;
}
