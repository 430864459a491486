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

  @Field(() => String, { description: 'First name of the person.', nullable: true })
  @IsOptional()
  @MaxLength(200)
  firstName?: string;
  @Field(() => String, { description: 'Last name of the person.', nullable: true })
  @IsOptional()
  @MaxLength(200)
  lastName?: string;
  @Field(() => String, { description: "The person's company.", nullable: true })
  @IsOptional()
  @MaxLength(300)
  companyName?: string;
  @Field(() => String, { description: 'Website of the company.', nullable: true })
  @IsOptional()
  @MaxLength(2000)
  companyWebsite?: string;
  @Field(() => String, { description: 'E-mail address of the person.', nullable: true })
  @IsOptional()
  @IsEmail()
  email?: string;
  @Field(() => String, { description: 'Phone number of the person.', nullable: true })
  @IsOptional()
  @MaxLength(50)
  phone?: string;
  @Field(() => String, { description: "The company's industry.", nullable: true })
  @IsOptional()
  @MaxLength(200)
  industry?: string;
  @Field(() => String, { description: "The person's Instagram handle.", nullable: true })
  @IsOptional()
  @MaxLength(100)
  instagramHandle?: string;
  @Field(() => String, { description: 'What the lead is interested in.', nullable: true })
  @IsOptional()
  @MaxLength(2000)
  interest?: string;
  @Field(() => String, { description: 'What the lead wrote.', nullable: true })
  @IsOptional()
  @MaxLength(10000)
  message?: string;
  @Field(() => String, { description: 'What is to be done next.', nullable: true })
  @IsOptional()
  @MaxLength(2000)
  nextAction?: string;
  @Field(() => DateTimeISOResolver, { description: 'When the next action is due.', nullable: true })
  nextActionDueDate?: Date;
  @Field(() => String, { description: 'Internal note.', nullable: true })
  @IsOptional()
  @MaxLength(10000)
  note?: string;
  @Field(() => String, { description: 'The web page the lead came in from.', nullable: true })
  @IsOptional()
  @MaxLength(2000)
  pageUrl?: string;
  @Field(() => String, { description: 'The language the lead prefers.', nullable: true })
  @IsOptional()
  @MaxLength(20)
  preferredLanguage?: string;
  @Field(() => String, { description: 'Why the lead was (dis)qualified.', nullable: true })
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

  @Field(() => String, { description: 'The page that referred the visitor.', nullable: true })
  @IsOptional()
  @MaxLength(2000)
  referrerUrl?: string;
  @Field(() => String, {
    description: 'Where the lead came from (for example website, referral).',
    nullable: true,
  })
  @IsOptional()
  @MaxLength(200)
  source?: string;
  @Field(() => String, { description: 'More about the source.', nullable: true })
  @IsOptional()
  @MaxLength(2000)
  sourceDetail?: string;
  @Field(() => String, { description: 'The utm_campaign of the visit.', nullable: true })
  @IsOptional()
  @MaxLength(500)
  utmCampaign?: string;
  @Field(() => String, { description: 'The utm_content of the visit.', nullable: true })
  @IsOptional()
  @MaxLength(500)
  utmContent?: string;
  @Field(() => String, { description: 'The utm_medium of the visit.', nullable: true })
  @IsOptional()
  @MaxLength(500)
  utmMedium?: string;
  @Field(() => String, { description: 'The utm_source of the visit.', nullable: true })
  @IsOptional()
  @MaxLength(500)
  utmSource?: string;
  @Field(() => String, { description: 'The utm_term of the visit.', nullable: true })
  @IsOptional()
  @MaxLength(500)
  utmTerm?: string;

  @Field(() => Boolean, { description: 'True once the lead accepted a quote.', nullable: true })
  @NotNullWhenGiven()
  @IsBoolean()
  hasAcceptedQuote?: boolean;

  @Field(() => Address, { description: "The lead's address.", nullable: true }) address?: Address;
  @Field(() => String, { description: 'Id of the customer the lead became or belongs to.', nullable: true })
  @IsOptional()
  @IsUUID()
  customerId?: string;
  @Field(() => String, { description: 'Id of the opportunity made from the lead.', nullable: true })
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
