import { Entity, Enum, Property, Unique } from '@mikro-orm/core';
import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import { Audited } from '../tenant-scoped';
import { TenantIndexes } from './tenant-indexes';

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
  @Enum({ items: () => InboundEmailStatus })
  @Field(() => InboundEmailStatus, { description: 'Where the e-mail stands; NEW is unread.' })
  status: InboundEmailStatus = InboundEmailStatus.NEW;

  @Property({ type: 'timestamptz' })
  @Field(() => DateTimeISOResolver, { description: 'When the e-mail arrived.' })
  receivedAt: Date = new Date();

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'Subject line.' })
  subject?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'The HTML body.' })
  bodyHtml?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'The plain-text body.' })
  bodyText?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "Sender's e-mail address." })
  fromEmail?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "Sender's name." })
  fromName?: string | null;

  @Property({ type: 'text[]' })
  @Field(() => [String], { description: 'Addresses the e-mail was sent to.' })
  recipients: string[] = [];

  @Property({ type: 'text[]' })
  @Field(() => [String], { description: 'Addresses in copy.' })
  cc: string[] = [];

  /** The identifiers below come from mail systems (RFC 5322 headers, Microsoft Graph), not from us. */
  @Property({ type: 'text', nullable: true })
  @Field(() => String, {
    nullable: true,
    description: 'Id of the conversation (thread) the e-mail belongs to.',
  })
  conversationId?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'Id of the message at the mail gateway.' })
  graphMessageId?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, {
    nullable: true,
    description: 'The In-Reply-To header: the Message-ID of the e-mail this one answers.',
  })
  inReplyTo?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'The Message-ID header; unique per message.' })
  internetMessageId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: 'The communication this one answers.' })
  parentCommunicationId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, {
    nullable: true,
    description: 'A record the e-mail is about (see relatedEntityType).',
  })
  relatedEntityId?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'The kind of record relatedEntityId names: LEAD...' })
  relatedEntityType?: string | null;
}
