import { Field, InputType } from 'type-graphql';
import { IsBoolean, IsEmail, IsEnum, IsOptional, IsUUID, MaxLength } from 'class-validator';
import { DateTimeISOResolver } from '../../../schema/date-time';
import { LeadStatus, LEAD_DOCS } from '../entities/lead';
import { Address } from '../../../entities/shared';
import { NotNullWhenGiven } from './validation';

/** A lead, new or changed: every field is optional (leads arrive half-known from web forms). */
@InputType('LeadInput', { description: 'A lead; on update, absent fields stay as they are.' })
export class LeadInput {
  @Field(() => LeadStatus, { nullable: true, description: 'NEW when a new lead leaves it out.' })
  @NotNullWhenGiven()
  @IsEnum(LeadStatus)
  status?: LeadStatus;

  @Field(() => String, { nullable: true, description: LEAD_DOCS.firstName })
  @IsOptional()
  @MaxLength(200)
  firstName?: string;
  @Field(() => String, { nullable: true, description: LEAD_DOCS.lastName })
  @IsOptional()
  @MaxLength(200)
  lastName?: string;
  @Field(() => String, { nullable: true, description: LEAD_DOCS.companyName })
  @IsOptional()
  @MaxLength(300)
  companyName?: string;
  @Field(() => String, { nullable: true, description: LEAD_DOCS.companyWebsite })
  @IsOptional()
  @MaxLength(2000)
  companyWebsite?: string;
  @Field(() => String, { nullable: true, description: LEAD_DOCS.email })
  @IsOptional()
  @IsEmail()
  email?: string;
  @Field(() => String, { nullable: true, description: LEAD_DOCS.phone })
  @IsOptional()
  @MaxLength(50)
  phone?: string;
  @Field(() => String, { nullable: true, description: LEAD_DOCS.industry })
  @IsOptional()
  @MaxLength(200)
  industry?: string;
  @Field(() => String, { nullable: true, description: LEAD_DOCS.instagramHandle })
  @IsOptional()
  @MaxLength(100)
  instagramHandle?: string;
  @Field(() => String, { nullable: true, description: LEAD_DOCS.interest })
  @IsOptional()
  @MaxLength(2000)
  interest?: string;
  @Field(() => String, { nullable: true, description: LEAD_DOCS.message })
  @IsOptional()
  @MaxLength(10000)
  message?: string;
  @Field(() => String, { nullable: true, description: LEAD_DOCS.nextAction })
  @IsOptional()
  @MaxLength(2000)
  nextAction?: string;
  @Field(() => DateTimeISOResolver, { nullable: true, description: LEAD_DOCS.nextActionDueDate })
  nextActionDueDate?: Date;
  @Field(() => DateTimeISOResolver, { nullable: true, description: LEAD_DOCS.nextActionNotifiedAt })
  nextActionNotifiedAt?: Date;
  @Field(() => String, { nullable: true, description: LEAD_DOCS.note })
  @IsOptional()
  @MaxLength(10000)
  note?: string;
  @Field(() => String, { nullable: true, description: LEAD_DOCS.pageUrl })
  @IsOptional()
  @MaxLength(2000)
  pageUrl?: string;
  @Field(() => String, { nullable: true, description: LEAD_DOCS.preferredLanguage })
  @IsOptional()
  @MaxLength(20)
  preferredLanguage?: string;
  @Field(() => String, { nullable: true, description: LEAD_DOCS.qualificationNotes })
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

  @Field(() => String, { nullable: true, description: LEAD_DOCS.referrerUrl })
  @IsOptional()
  @MaxLength(2000)
  referrerUrl?: string;
  @Field(() => String, {
    nullable: true,
    description: LEAD_DOCS.source,
  })
  @IsOptional()
  @MaxLength(200)
  source?: string;
  @Field(() => String, { nullable: true, description: LEAD_DOCS.sourceDetail })
  @IsOptional()
  @MaxLength(2000)
  sourceDetail?: string;
  @Field(() => String, { nullable: true, description: LEAD_DOCS.utmCampaign })
  @IsOptional()
  @MaxLength(500)
  utmCampaign?: string;
  @Field(() => String, { nullable: true, description: LEAD_DOCS.utmContent })
  @IsOptional()
  @MaxLength(500)
  utmContent?: string;
  @Field(() => String, { nullable: true, description: LEAD_DOCS.utmMedium })
  @IsOptional()
  @MaxLength(500)
  utmMedium?: string;
  @Field(() => String, { nullable: true, description: LEAD_DOCS.utmSource })
  @IsOptional()
  @MaxLength(500)
  utmSource?: string;
  @Field(() => String, { nullable: true, description: LEAD_DOCS.utmTerm })
  @IsOptional()
  @MaxLength(500)
  utmTerm?: string;

  @Field(() => Boolean, { nullable: true, description: LEAD_DOCS.hasAcceptedQuote })
  @NotNullWhenGiven()
  @IsBoolean()
  hasAcceptedQuote?: boolean;

  @Field(() => Address, { nullable: true, description: LEAD_DOCS.address }) address?: Address;
  @Field(() => String, { nullable: true, description: LEAD_DOCS.customerId })
  @IsOptional()
  @IsUUID()
  customerId?: string;
  @Field(() => String, { nullable: true, description: LEAD_DOCS.opportunityId })
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
