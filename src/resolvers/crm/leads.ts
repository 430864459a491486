import { Field, InputType } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import { IsBoolean, IsEmail, IsEnum, IsOptional, IsUUID, MaxLength } from 'class-validator';
import { callerOf } from '../../context';
import { Lead, LeadStatus } from '../../entities/crm/lead';
import { Customer } from '../../entities/reference/customer';
import { Opportunity } from '../../entities/reference/opportunity';
import { Subsidiary } from '../../entities/reference/subsidiary';
import { Address } from '../../entities/shared';
import { User } from '../../entities/user';
import { defineGroup } from '../../family/group';
import { checkRefs, refsIn } from '../../family/references';
import { NotNullWhenGiven } from './validation';
import { AUDIT_FIELDS } from '../../family/fields';

/** A lead, new or changed: every field is optional (leads arrive half-known from web forms). */
@InputType('LeadInput', { description: 'A lead; on update, absent fields stay as they are.' })
export class LeadInput {
  @Field(() => LeadStatus, { nullable: true, description: 'NEW when a new lead leaves it out.' })
  @NotNullWhenGiven()
  @IsEnum(LeadStatus)
  status?: LeadStatus;

  @Field(() => String, { nullable: true, description: 'First name of the person.' })
  @IsOptional()
  @MaxLength(200)
  firstName?: string;
  @Field(() => String, { nullable: true, description: 'Last name of the person.' })
  @IsOptional()
  @MaxLength(200)
  lastName?: string;
  @Field(() => String, { nullable: true, description: "The person's company." })
  @IsOptional()
  @MaxLength(300)
  companyName?: string;
  @Field(() => String, { nullable: true, description: 'Website of the company.' })
  @IsOptional()
  @MaxLength(2000)
  companyWebsite?: string;
  @Field(() => String, { nullable: true, description: 'E-mail address of the person.' })
  @IsOptional()
  @IsEmail()
  email?: string;
  @Field(() => String, { nullable: true, description: 'Phone number of the person.' })
  @IsOptional()
  @MaxLength(50)
  phone?: string;
  @Field(() => String, { nullable: true, description: "The company's industry." })
  @IsOptional()
  @MaxLength(200)
  industry?: string;
  @Field(() => String, { nullable: true, description: "The person's Instagram handle." })
  @IsOptional()
  @MaxLength(100)
  instagramHandle?: string;
  @Field(() => String, { nullable: true, description: 'What the lead is interested in.' })
  @IsOptional()
  @MaxLength(2000)
  interest?: string;
  @Field(() => String, { nullable: true, description: 'What the lead wrote.' })
  @IsOptional()
  @MaxLength(10000)
  message?: string;
  @Field(() => String, { nullable: true, description: 'What is to be done next.' })
  @IsOptional()
  @MaxLength(2000)
  nextAction?: string;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When the next action is due.' })
  nextActionDueDate?: Date;
  @Field(() => String, { nullable: true, description: 'Internal note.' })
  @IsOptional()
  @MaxLength(10000)
  note?: string;
  @Field(() => String, { nullable: true, description: 'The web page the lead came in from.' })
  @IsOptional()
  @MaxLength(2000)
  pageUrl?: string;
  @Field(() => String, { nullable: true, description: 'The language the lead prefers.' })
  @IsOptional()
  @MaxLength(20)
  preferredLanguage?: string;
  @Field(() => String, { nullable: true, description: 'Why the lead was (dis)qualified.' })
  @IsOptional()
  @MaxLength(10000)
  qualificationNotes?: string;

  @Field(() => String, {
    nullable: true,
    description: 'A user id; the caller when the lead becomes QUALIFIED.',
  })
  @IsOptional()
  @IsUUID()
  qualifiedBy?: string;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Now when the lead becomes QUALIFIED.' })
  qualifiedDate?: Date;

  @Field(() => String, { nullable: true, description: 'The page that referred the visitor.' })
  @IsOptional()
  @MaxLength(2000)
  referrerUrl?: string;
  @Field(() => String, {
    nullable: true,
    description: 'Where the lead came from (for example website, referral).',
  })
  @IsOptional()
  @MaxLength(200)
  source?: string;
  @Field(() => String, { nullable: true, description: 'More about the source.' })
  @IsOptional()
  @MaxLength(2000)
  sourceDetail?: string;
  @Field(() => String, { nullable: true, description: 'The utm_campaign of the visit.' })
  @IsOptional()
  @MaxLength(500)
  utmCampaign?: string;
  @Field(() => String, { nullable: true, description: 'The utm_content of the visit.' })
  @IsOptional()
  @MaxLength(500)
  utmContent?: string;
  @Field(() => String, { nullable: true, description: 'The utm_medium of the visit.' })
  @IsOptional()
  @MaxLength(500)
  utmMedium?: string;
  @Field(() => String, { nullable: true, description: 'The utm_source of the visit.' })
  @IsOptional()
  @MaxLength(500)
  utmSource?: string;
  @Field(() => String, { nullable: true, description: 'The utm_term of the visit.' })
  @IsOptional()
  @MaxLength(500)
  utmTerm?: string;

  @Field(() => Boolean, { nullable: true, description: 'True once the lead accepted a quote.' })
  @NotNullWhenGiven()
  @IsBoolean()
  hasAcceptedQuote?: boolean;

  @Field(() => Address, { nullable: true, description: "The lead's address." }) address?: Address;
  @Field(() => String, { nullable: true, description: 'Id of the customer the lead became or belongs to.' })
  @IsOptional()
  @IsUUID()
  customerId?: string;
  @Field(() => String, { nullable: true, description: 'Id of the opportunity made from the lead.' })
  @IsOptional()
  @IsUUID()
  opportunityId?: string;
  @Field(() => String, { nullable: true, description: 'A user id.' })
  @IsOptional()
  @IsUUID()
  ownerId?: string;

  @Field(() => String, { nullable: true, description: 'One of the caller subsidiaries (else 403).' })
  @IsOptional()
  @IsUUID()
  subsidiaryId?: string;
}

export const leads = defineGroup({
  entity: Lead,
  name: 'Lead',
  plural: 'Leads',
  resource: 'LEADS',
  createInput: LeadInput,
  updateInput: LeadInput,
  searchable: ['firstName', 'lastName', 'companyName', 'email'],
  filterable: [
    ...AUDIT_FIELDS,
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
  ],
  scope: 'subsidiaryId',
  async beforeSave(ctx, lead, input) {
    await checkRefs(
      ctx,
      404,
      refsIn(input, [
        ['customerId', Customer],
        ['opportunityId', Opportunity],
        ['ownerId', User],
        ['qualifiedBy', User],
        ['subsidiaryId', Subsidiary],
      ]),
    );
    // Who qualified a lead, and when, is kept from the first qualification on.
    if (input.status === LeadStatus.QUALIFIED) {
      lead.qualifiedDate ??= new Date();
      lead.qualifiedBy ??= callerOf(ctx).userId;
    }
  },
});
