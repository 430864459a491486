import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { DateTimeISOResolver } from '../../graphql/date-time';
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
@InputType()
class InboundEmailFields {
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(1000) subject?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(1_000_000) bodyHtml?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(1_000_000) bodyText?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(300) fromName?: string;

  @Field(() => [String], { nullable: true })
  @NotNullWhenGiven()
  @IsArray()
  @ArrayMaxSize(500)
  @MaxLength(320, { each: true })
  recipients?: string[];

  @Field(() => [String], { nullable: true })
  @NotNullWhenGiven()
  @IsArray()
  @ArrayMaxSize(500)
  @MaxLength(320, { each: true })
  cc?: string[];

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Now when a new e-mail leaves it out.' })
  @NotNullWhenGiven()
  @IsDate()
  receivedAt?: Date;

  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(1000) conversationId?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(1000) graphMessageId?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(1000) inReplyTo?: string;

  @Field(() => String, { nullable: true, description: 'Unique within the tenant.' })
  @IsOptional()
  @MaxLength(1000)
  internetMessageId?: string;

  @Field(() => String, { nullable: true }) @IsOptional() @IsUUID() parentCommunicationId?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsUUID() relatedEntityId?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(100) relatedEntityType?: string;
}

@InputType({ description: 'An inbound e-mail, new or changed; on update, absent fields stay as they are.' })
export class InboundEmailInput extends InboundEmailFields {
  @Field(() => String, { nullable: true }) @IsOptional() @IsEmail() fromEmail?: string;

  @Field(() => InboundEmailStatus, { nullable: true, description: 'NEW when a new e-mail leaves it out.' })
  @NotNullWhenGiven()
  @IsEnum(InboundEmailStatus)
  status?: InboundEmailStatus;
}

@InputType({ description: 'An e-mail as a mail gateway delivers it; it arrives unread (NEW).' })
export class IngestInboundEmailInput extends InboundEmailFields {
  @Field(() => String) @IsEmail() fromEmail!: string;
}

/** The inbox counters: `unread` (status NEW), `total`, and one per status. */
@ObjectType({ description: 'How many inbox e-mails there are: unread (NEW), total, and per status.' })
export class InboxCounts {
  @Field(() => Int) unread!: number;
  @Field(() => Int) total!: number;
  @Field(() => Int) NEW!: number;
  @Field(() => Int) READ!: number;
  @Field(() => Int) ARCHIVED!: number;
  @Field(() => Int) REPLIED!: number;
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
