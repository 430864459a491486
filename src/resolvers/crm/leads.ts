import { Field, InputType } from 'type-graphql';
import { DateTimeISOResolver } from '../../graphql/date-time';
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

  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(200) firstName?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(200) lastName?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(300) companyName?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(2000) companyWebsite?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsEmail() email?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(50) phone?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(200) industry?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(100) instagramHandle?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(2000) interest?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(10000) message?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(2000) nextAction?: string;
  @Field(() => DateTimeISOResolver, { nullable: true }) nextActionDueDate?: Date;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(10000) note?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(2000) pageUrl?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(20) preferredLanguage?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(10000) qualificationNotes?: string;

  @Field(() => String, {
    nullable: true,
    description: 'A user id; the caller when the lead becomes QUALIFIED.',
  })
  @IsOptional()
  @IsUUID()
  qualifiedBy?: string;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Now when the lead becomes QUALIFIED.' })
  qualifiedDate?: Date;

  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(2000) referrerUrl?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(200) source?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(2000) sourceDetail?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(500) utmCampaign?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(500) utmContent?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(500) utmMedium?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(500) utmSource?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(500) utmTerm?: string;

  @Field(() => Boolean, { nullable: true })
  @NotNullWhenGiven()
  @IsBoolean()
  hasAcceptedQuote?: boolean;

  @Field(() => Address, { nullable: true }) address?: Address;
  @Field(() => String, { nullable: true }) @IsOptional() @IsUUID() customerId?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsUUID() opportunityId?: string;
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
