import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
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
import { InboundEmail, InboundEmailStatus } from '../../entities/crm/inbound-email';
import { defineGroup } from '../../family/group';
import { NotNullWhenGiven } from './validation';
import { AUDIT_FIELDS } from '../../family/fields';

/** Fields shared by the create and update inputs; never used as an argument, so not in the schema. */
@InputType({ description: 'Fields shared by stored and ingested e-mails.' })
class InboundEmailFields {
  @Field(() => String, { nullable: true, description: 'Subject line.' })
  @IsOptional()
  @MaxLength(1000)
  subject?: string;
  @Field(() => String, { nullable: true, description: 'The HTML body.' })
  @IsOptional()
  @MaxLength(1_000_000)
  bodyHtml?: string;
  @Field(() => String, { nullable: true, description: 'The plain-text body.' })
  @IsOptional()
  @MaxLength(1_000_000)
  bodyText?: string;
  @Field(() => String, { nullable: true, description: "Sender's name." })
  @IsOptional()
  @MaxLength(300)
  fromName?: string;

  @Field(() => [String], { nullable: true, description: 'Addresses the e-mail was sent to.' })
  @NotNullWhenGiven()
  @IsArray()
  @ArrayMaxSize(500)
  @MaxLength(320, { each: true })
  recipients?: string[];

  @Field(() => [String], { nullable: true, description: 'Addresses in copy.' })
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
    description: 'Id of the conversation (thread) the e-mail belongs to.',
  })
  @IsOptional()
  @MaxLength(1000)
  conversationId?: string;
  @Field(() => String, { nullable: true, description: 'Id of the message at the mail gateway.' })
  @IsOptional()
  @MaxLength(1000)
  graphMessageId?: string;
  @Field(() => String, {
    nullable: true,
    description: 'The In-Reply-To header: the Message-ID of the e-mail this one answers.',
  })
  @IsOptional()
  @MaxLength(1000)
  inReplyTo?: string;

  @Field(() => String, { nullable: true, description: 'Unique within the tenant.' })
  @IsOptional()
  @MaxLength(1000)
  internetMessageId?: string;

  @Field(() => String, { nullable: true, description: 'The communication this one answers.' })
  @IsOptional()
  @IsUUID()
  parentCommunicationId?: string;
  @Field(() => String, {
    nullable: true,
    description: 'A record the e-mail is about (see relatedEntityType).',
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
  @Field(() => String, { nullable: true, description: "Sender's e-mail address." })
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
  @Field(() => String, { description: "Sender's e-mail address." }) @IsEmail() fromEmail!: string;
}

/** The inbox counters: `unread` (status NEW), `total`, and one per status. */
@ObjectType({ description: 'How many inbox e-mails there are: unread (NEW), total, and per status.' })
export class InboxCounts {
  @Field(() => Int, { description: 'E-mails with status NEW.' }) unread!: number;
  @Field(() => Int, { description: 'Every e-mail in the inbox.' }) total!: number;
  @Field(() => Int, { description: 'E-mails with status NEW.' }) NEW!: number;
  @Field(() => Int, { description: 'E-mails with status READ.' }) READ!: number;
  @Field(() => Int, { description: 'E-mails with status ARCHIVED.' }) ARCHIVED!: number;
  @Field(() => Int, { description: 'E-mails with status REPLIED.' }) REPLIED!: number;
}

export const inbox = defineGroup({
  entity: InboundEmail,
  name: 'InboundEmail',
  plural: 'InboundEmails',
  resource: 'INBOX',
  createInput: InboundEmailInput,
  updateInput: InboundEmailInput,
  searchable: ['subject', 'fromEmail', 'fromName'],
  filterable: [
    ...AUDIT_FIELDS,
    'subject',
    'fromEmail',
    'fromName',
    'status',
    'receivedAt',
    'conversationId',
    'internetMessageId',
    'parentCommunicationId',
    'relatedEntityId',
    'relatedEntityType',
    'recipients',
  ],
});
