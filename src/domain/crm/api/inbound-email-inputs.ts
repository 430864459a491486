import { Field, InputType } from 'type-graphql';
import {
  ArrayMaxSize,
  IsArray,
  IsDate,
  IsEmail,
  IsEnum,
  IsOptional,
  IsUUID,
  MaxLength,
} from 'class-validator';
import { DateTimeISOResolver } from '../../../schema/date-time';
import { InboundEmailStatus, INBOUND_EMAIL_DOCS } from '../entities/inbound-email';
import { NotNullWhenGiven } from './validation';

/** Fields shared by the create and update inputs; never used as an argument, so not in the schema. */
@InputType({ description: 'Fields shared by stored and ingested e-mails.' })
class InboundEmailFields {
  @Field(() => String, { nullable: true, description: INBOUND_EMAIL_DOCS.subject })
  @IsOptional()
  @MaxLength(1000)
  subject?: string;
  @Field(() => String, { nullable: true, description: INBOUND_EMAIL_DOCS.bodyHtml })
  @IsOptional()
  @MaxLength(1_000_000)
  bodyHtml?: string;
  @Field(() => String, { nullable: true, description: INBOUND_EMAIL_DOCS.bodyText })
  @IsOptional()
  @MaxLength(1_000_000)
  bodyText?: string;
  @Field(() => String, { nullable: true, description: INBOUND_EMAIL_DOCS.fromName })
  @IsOptional()
  @MaxLength(300)
  fromName?: string;

  @Field(() => [String], { nullable: true, description: INBOUND_EMAIL_DOCS.recipients })
  @NotNullWhenGiven()
  @IsArray()
  @ArrayMaxSize(500)
  @MaxLength(320, { each: true })
  recipients?: string[];

  @Field(() => [String], { nullable: true, description: INBOUND_EMAIL_DOCS.cc })
  @NotNullWhenGiven()
  @IsArray()
  @ArrayMaxSize(500)
  @MaxLength(320, { each: true })
  cc?: string[];

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Now when a new e-mail leaves it out.' })
  @NotNullWhenGiven()
  @IsDate()
  receivedAt?: Date;

  @Field(() => String, {
    nullable: true,
    description: INBOUND_EMAIL_DOCS.conversationId,
  })
  @IsOptional()
  @MaxLength(1000)
  conversationId?: string;
  @Field(() => String, { nullable: true, description: INBOUND_EMAIL_DOCS.graphMessageId })
  @IsOptional()
  @MaxLength(1000)
  graphMessageId?: string;
  @Field(() => String, {
    nullable: true,
    description: INBOUND_EMAIL_DOCS.inReplyTo,
  })
  @IsOptional()
  @MaxLength(1000)
  inReplyTo?: string;

  @Field(() => String, { nullable: true, description: 'Unique within the tenant.' })
  @IsOptional()
  @MaxLength(1000)
  internetMessageId?: string;

  @Field(() => String, { nullable: true, description: INBOUND_EMAIL_DOCS.parentCommunicationId })
  @IsOptional()
  @IsUUID()
  parentCommunicationId?: string;
  @Field(() => String, {
    nullable: true,
    description: INBOUND_EMAIL_DOCS.relatedEntityId,
  })
  @IsOptional()
  @IsUUID()
  relatedEntityId?: string;
  @Field(() => String, {
    nullable: true,
    description: 'The kind of record relatedEntityId names, for example LEAD.',
  })
  @IsOptional()
  @MaxLength(100)
  relatedEntityType?: string;
}

@InputType({ description: 'An inbound e-mail, new or changed; on update, absent fields stay as they are.' })
export class InboundEmailInput extends InboundEmailFields {
  @Field(() => String, { nullable: true, description: INBOUND_EMAIL_DOCS.fromEmail })
  @IsOptional()
  @IsEmail()
  fromEmail?: string;

  @Field(() => InboundEmailStatus, { nullable: true, description: 'NEW when a new e-mail leaves it out.' })
  @NotNullWhenGiven()
  @IsEnum(InboundEmailStatus)
  status?: InboundEmailStatus;
}

@InputType({ description: 'An e-mail as a mail gateway delivers it; it arrives unread (NEW).' })
export class IngestInboundEmailInput extends InboundEmailFields {
  @Field(() => String, { description: INBOUND_EMAIL_DOCS.fromEmail }) @IsEmail() fromEmail!: string;
}
