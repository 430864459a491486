import { Entity, Unique } from '@mikro-orm/core';
import { ObjectType, registerEnumType } from 'type-graphql';
import { Audited } from '../../../entities/tenant-scoped';
import { FileAsset } from '../../../entities/shared';
import {
  DateTimeColumn,
  EnumColumn,
  JsonColumn,
  TenantIndexes,
  TextColumn,
  TextListColumn,
  UuidColumn,
} from '../../../entities/columns';

export enum InboundEmailStatus {
  NEW = 'NEW',
  READ = 'READ',
  ARCHIVED = 'ARCHIVED',
  REPLIED = 'REPLIED',
}
registerEnumType(InboundEmailStatus, {
  name: 'InboundEmailStatus',
  description: 'NEW is unread; the others have been seen.',
  valuesConfig: {
    NEW: { description: 'Not read yet (counted as unread).' },
    READ: { description: 'Read.' },
    ARCHIVED: { description: 'Archived.' },
    REPLIED: { description: 'Answered.' },
  },
});

/** What InboundEmail fields mean, shared with the inputs that set them. */
export const INBOUND_EMAIL_DOCS = {
  subject: 'Subject line.',
  bodyHtml: 'The HTML body.',
  bodyText: 'The plain-text body.',
  fromName: "Sender's name.",
  recipients: 'Addresses the e-mail was sent to.',
  cc: 'Addresses in copy.',
  conversationId: 'Id of the conversation (thread) the e-mail belongs to.',
  graphMessageId: 'Id of the message at the mail gateway.',
  inReplyTo: 'The In-Reply-To header: the Message-ID of the e-mail this one answers.',
  parentCommunicationId: 'The communication this one answers.',
  relatedEntityId: 'A record the e-mail is about (see relatedEntityType).',
  fromEmail: "Sender's e-mail address.",
} as const;

@Entity({ tableName: 'inbound_email' })
// A mail gateway may deliver one message twice; the Message-ID keeps it one record. NULLs stay distinct.
@Unique({
  name: 'inbound_email_tenant_internet_message_id_uq',
  properties: ['tenantId', 'internetMessageId'],
})
@TenantIndexes(
  'inbound_email',
  'subject',
  'fromEmail',
  'fromName',
  'status',
  'receivedAt',
  'conversationId',
  'parentCommunicationId',
  'relatedEntityId',
  'relatedEntityType',
  'recipients',
)
@ObjectType({ description: 'An e-mail received in the tenant inbox.' })
export class InboundEmail extends Audited {
  @EnumColumn(() => InboundEmailStatus, {
    nullable: false,
    description: 'Where the e-mail stands; NEW is unread.',
  })
  status: InboundEmailStatus = InboundEmailStatus.NEW;

  @DateTimeColumn({ nullable: false, description: 'When the e-mail arrived.' })
  receivedAt: Date = new Date();

  @TextColumn({ description: INBOUND_EMAIL_DOCS.subject })
  subject?: string | null;

  @TextColumn({ description: INBOUND_EMAIL_DOCS.bodyHtml })
  bodyHtml?: string | null;

  @TextColumn({ description: INBOUND_EMAIL_DOCS.bodyText })
  bodyText?: string | null;

  @TextColumn({ description: INBOUND_EMAIL_DOCS.fromEmail })
  fromEmail?: string | null;

  @TextColumn({ description: INBOUND_EMAIL_DOCS.fromName })
  fromName?: string | null;

  @TextListColumn({ description: INBOUND_EMAIL_DOCS.recipients })
  recipients: string[] = [];

  @TextListColumn({ description: INBOUND_EMAIL_DOCS.cc })
  cc: string[] = [];

  /** The identifiers below come from mail systems (RFC 5322 headers, Microsoft Graph), not from us. */
  @TextColumn({ description: INBOUND_EMAIL_DOCS.conversationId })
  conversationId?: string | null;

  @TextColumn({ description: INBOUND_EMAIL_DOCS.graphMessageId })
  graphMessageId?: string | null;

  @TextColumn({ description: INBOUND_EMAIL_DOCS.inReplyTo })
  inReplyTo?: string | null;

  @TextColumn({ description: 'The Message-ID header; unique per message.' })
  internetMessageId?: string | null;

  @UuidColumn({ description: INBOUND_EMAIL_DOCS.parentCommunicationId })
  parentCommunicationId?: string | null;

  @UuidColumn({ description: INBOUND_EMAIL_DOCS.relatedEntityId })
  relatedEntityId?: string | null;

  @TextColumn({ description: 'The kind of record relatedEntityId names: LEAD...' })
  relatedEntityType?: string | null;

  @JsonColumn(() => [FileAsset], {
    nullable: false,
    description:
      'The files the e-mail carried, stored as files of the tenant (read them through the files API).',
  })
  attachments: FileAsset[] = [];
}
