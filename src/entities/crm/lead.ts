import { Entity, Enum, Property } from '@mikro-orm/core';
import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
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
  valuesConfig: {
    NEW: { description: 'Just came in.' },
    CONTACTED: { description: 'Contact was made.' },
    QUALIFIED: { description: 'Worth pursuing; sets `qualifiedDate` and `qualifiedBy` the first time.' },
    PROPOSAL: { description: 'A proposal was made.' },
    NEGOTIATION: { description: 'In negotiation.' },
    WON: { description: 'Became a customer.' },
    LOST: { description: 'Went elsewhere.' },
    DISQUALIFIED: { description: 'Not a fit.' },
  },
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
  @Field(() => LeadStatus, { description: 'Where the lead stands; any status may follow any other.' })
  status: LeadStatus = LeadStatus.NEW;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'First name of the person.' })
  firstName?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'Last name of the person.' })
  lastName?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "The person's company." })
  companyName?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'Website of the company.' })
  companyWebsite?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'E-mail address of the person.' })
  email?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'Phone number of the person.' })
  phone?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "The company's industry." })
  industry?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "The person's Instagram handle." })
  instagramHandle?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'What the lead is interested in.' })
  interest?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'What the lead wrote.' })
  message?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'What is to be done next.' })
  nextAction?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When the next action is due.' })
  nextActionDueDate?: Date | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'Internal note.' })
  note?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'The web page the lead came in from.' })
  pageUrl?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'The language the lead prefers.' })
  preferredLanguage?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'Why the lead was (dis)qualified.' })
  qualificationNotes?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: 'Id of the user who qualified the lead.' })
  qualifiedBy?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'When the lead first became QUALIFIED; set by the service.',
  })
  qualifiedDate?: Date | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'The page that referred the visitor.' })
  referrerUrl?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, {
    nullable: true,
    description: 'Where the lead came from (for example website, referral).',
  })
  source?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'More about the source.' })
  sourceDetail?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'The utm_campaign of the visit.' })
  utmCampaign?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'The utm_content of the visit.' })
  utmContent?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'The utm_medium of the visit.' })
  utmMedium?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'The utm_source of the visit.' })
  utmSource?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'The utm_term of the visit.' })
  utmTerm?: string | null;

  @Property({ type: 'boolean' })
  @Field(() => Boolean, { description: 'True once the lead accepted a quote.' })
  hasAcceptedQuote: boolean = false;

  @Property({ type: 'json', nullable: true })
  @Field(() => Address, { nullable: true, description: "The lead's address." })
  address?: Address | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: 'Id of the customer the lead became or belongs to.' })
  customerId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: 'Id of the opportunity made from the lead.' })
  opportunityId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: 'Id of the user responsible for the lead.' })
  ownerId?: string | null;

  /** Leads with a subsidiary are visible only to users with access to it (decisions.md "Data scope"). */
  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, {
    nullable: true,
    description: 'Id of the subsidiary handling the lead; limits who sees it.',
  })
  subsidiaryId?: string | null;
}
