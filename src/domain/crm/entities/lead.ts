import { Entity } from '@mikro-orm/core';
import { ObjectType, registerEnumType } from 'type-graphql';
import { Audited } from '../../../entities/tenant-scoped';
import { Address } from '../../../entities/shared';
import {
  BooleanColumn,
  DateTimeColumn,
  EnumColumn,
  JsonColumn,
  TenantIndexes,
  TextColumn,
  UuidColumn,
} from '../../../entities/columns';

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

/** What Lead fields mean, shared with the inputs that set them. */
export const LEAD_DOCS = {
  firstName: 'First name of the person.',
  lastName: 'Last name of the person.',
  companyName: "The person's company.",
  companyWebsite: 'Website of the company.',
  email: 'E-mail address of the person.',
  phone: 'Phone number of the person.',
  industry: "The company's industry.",
  instagramHandle: "The person's Instagram handle.",
  interest: 'What the lead is interested in.',
  message: 'What the lead wrote.',
  nextAction: 'What is to be done next.',
  nextActionDueDate: 'When the next action is due.',
  nextActionNotifiedAt:
    'When the owner was last reminded that the next action is due; a new `nextActionDueDate` later than it is reminded again.',
  note: 'Internal note.',
  pageUrl: 'The web page the lead came in from.',
  preferredLanguage: 'The language the lead prefers.',
  qualificationNotes: 'Why the lead was (dis)qualified.',
  referrerUrl: 'The page that referred the visitor.',
  source: 'Where the lead came from (for example website, referral).',
  sourceDetail: 'More about the source.',
  utmCampaign: 'The utm_campaign of the visit.',
  utmContent: 'The utm_content of the visit.',
  utmMedium: 'The utm_medium of the visit.',
  utmSource: 'The utm_source of the visit.',
  utmTerm: 'The utm_term of the visit.',
  hasAcceptedQuote: 'True once the lead accepted a quote.',
  address: "The lead's address.",
  customerId: 'Id of the customer the lead became or belongs to.',
  opportunityId: 'Id of the opportunity made from the lead.',
} as const;

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
  'qualifiedBy',
  'qualifiedDate',
  'nextActionDueDate',
  'hasAcceptedQuote',
)
@ObjectType({ description: 'A prospective customer (CRM lead).' })
export class Lead extends Audited {
  @EnumColumn(() => LeadStatus, {
    nullable: false,
    description: 'Where the lead stands; any status may follow any other.',
  })
  status: LeadStatus = LeadStatus.NEW;

  @TextColumn({ description: LEAD_DOCS.firstName })
  firstName?: string | null;

  @TextColumn({ description: LEAD_DOCS.lastName })
  lastName?: string | null;

  @TextColumn({ description: LEAD_DOCS.companyName })
  companyName?: string | null;

  @TextColumn({ description: LEAD_DOCS.companyWebsite })
  companyWebsite?: string | null;

  @TextColumn({ description: LEAD_DOCS.email })
  email?: string | null;

  @TextColumn({ description: LEAD_DOCS.phone })
  phone?: string | null;

  @TextColumn({ description: LEAD_DOCS.industry })
  industry?: string | null;

  @TextColumn({ description: LEAD_DOCS.instagramHandle })
  instagramHandle?: string | null;

  @TextColumn({ description: LEAD_DOCS.interest })
  interest?: string | null;

  @TextColumn({ description: LEAD_DOCS.message })
  message?: string | null;

  @TextColumn({ description: LEAD_DOCS.nextAction })
  nextAction?: string | null;

  @DateTimeColumn({ description: LEAD_DOCS.nextActionDueDate })
  nextActionDueDate?: Date | null;

  @DateTimeColumn({ description: LEAD_DOCS.nextActionNotifiedAt })
  nextActionNotifiedAt?: Date | null;

  @TextColumn({ description: LEAD_DOCS.note })
  note?: string | null;

  @TextColumn({ description: LEAD_DOCS.pageUrl })
  pageUrl?: string | null;

  @TextColumn({ description: LEAD_DOCS.preferredLanguage })
  preferredLanguage?: string | null;

  @TextColumn({ description: LEAD_DOCS.qualificationNotes })
  qualificationNotes?: string | null;

  @UuidColumn({ description: 'Id of the user who qualified the lead.' })
  qualifiedBy?: string | null;

  @DateTimeColumn({ description: 'When the lead first became QUALIFIED; set by the service.' })
  qualifiedDate?: Date | null;

  @TextColumn({ description: LEAD_DOCS.referrerUrl })
  referrerUrl?: string | null;

  @TextColumn({ description: LEAD_DOCS.source })
  source?: string | null;

  @TextColumn({ description: LEAD_DOCS.sourceDetail })
  sourceDetail?: string | null;

  @TextColumn({ description: LEAD_DOCS.utmCampaign })
  utmCampaign?: string | null;

  @TextColumn({ description: LEAD_DOCS.utmContent })
  utmContent?: string | null;

  @TextColumn({ description: LEAD_DOCS.utmMedium })
  utmMedium?: string | null;

  @TextColumn({ description: LEAD_DOCS.utmSource })
  utmSource?: string | null;

  @TextColumn({ description: LEAD_DOCS.utmTerm })
  utmTerm?: string | null;

  @BooleanColumn({ nullable: false, description: LEAD_DOCS.hasAcceptedQuote })
  hasAcceptedQuote: boolean = false;

  @JsonColumn(() => Address, { description: LEAD_DOCS.address })
  address?: Address | null;

  @UuidColumn({ description: LEAD_DOCS.customerId })
  customerId?: string | null;

  @UuidColumn({ description: LEAD_DOCS.opportunityId })
  opportunityId?: string | null;

  @UuidColumn({ description: 'Id of the user responsible for the lead.' })
  ownerId?: string | null;

  /** Leads with a subsidiary are visible only to users with access to it (docs/conventions.md, "Permissions" (data scope)). */
  @UuidColumn({ description: 'Id of the subsidiary handling the lead; limits who sees it.' })
  subsidiaryId?: string | null;
}
