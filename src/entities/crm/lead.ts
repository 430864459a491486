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
  @Field(() => String, { description: 'First name of the person.', nullable: true })
  firstName?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { description: 'Last name of the person.', nullable: true })
  lastName?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { description: "The person's company.", nullable: true })
  companyName?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { description: 'Website of the company.', nullable: true })
  companyWebsite?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { description: 'E-mail address of the person.', nullable: true })
  email?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { description: 'Phone number of the person.', nullable: true })
  phone?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { description: "The company's industry.", nullable: true })
  industry?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { description: "The person's Instagram handle.", nullable: true })
  instagramHandle?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { description: 'What the lead is interested in.', nullable: true })
  interest?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { description: 'What the lead wrote.', nullable: true })
  message?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { description: 'What is to be done next.', nullable: true })
  nextAction?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { description: 'When the next action is due.', nullable: true })
  nextActionDueDate?: Date | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { description: 'Internal note.', nullable: true })
  note?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { description: 'The web page the lead came in from.', nullable: true })
  pageUrl?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { description: 'The language the lead prefers.', nullable: true })
  preferredLanguage?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { description: 'Why the lead was (dis)qualified.', nullable: true })
  qualificationNotes?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: 'Id of the user who qualified the lead.' })
  qualifiedBy?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, {
    description: 'When the lead first became QUALIFIED; set by the service.',
    nullable: true,
  })
  qualifiedDate?: Date | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { description: 'The page that referred the visitor.', nullable: true })
  referrerUrl?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, {
    description: 'Where the lead came from (for example website, referral).',
    nullable: true,
  })
  source?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { description: 'More about the source.', nullable: true })
  sourceDetail?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { description: 'The utm_campaign of the visit.', nullable: true })
  utmCampaign?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { description: 'The utm_content of the visit.', nullable: true })
  utmContent?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { description: 'The utm_medium of the visit.', nullable: true })
  utmMedium?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { description: 'The utm_source of the visit.', nullable: true })
  utmSource?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { description: 'The utm_term of the visit.', nullable: true })
  utmTerm?: string | null;

  @Property({ type: 'boolean' })
  @Field(() => Boolean, { description: 'True once the lead accepted a quote.' })
  hasAcceptedQuote: boolean = false;

  @Property({ type: 'json', nullable: true })
  @Field(() => Address, { description: "The lead's address.", nullable: true })
  address?: Address | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { description: 'Id of the customer the lead became or belongs to.', nullable: true })
  customerId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { description: 'Id of the opportunity made from the lead.', nullable: true })
  opportunityId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: 'Id of the user responsible for the lead.' })
  ownerId?: string | null;

  /** Leads with a subsidiary are visible only to users with access to it (decisions.md "Data scope"). */
  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, {
    description: 'Id of the subsidiary handling the lead; limits who sees it.',
    nullable: true,
  })
  subsidiaryId?: string | null;
}
