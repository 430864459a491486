import { Entity, Enum, Property, Unique } from '@mikro-orm/core';
import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from '../../graphql/date-time';
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
  @Field(() => InboundEmailStatus)
  status: InboundEmailStatus = InboundEmailStatus.NEW;

  @Property({ type: 'timestamptz' })
  @Field(() => DateTimeISOResolver)
  receivedAt: Date = new Date();

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  subject?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  bodyHtml?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  bodyText?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  fromEmail?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  fromName?: string | null;

  @Property({ type: 'text[]' })
  @Field(() => [String])
  recipients: string[] = [];

  @Property({ type: 'text[]' })
  @Field(() => [String])
  cc: string[] = [];

  /** The identifiers below come from mail systems (RFC 5322 headers, Microsoft Graph), not from us. */
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  conversationId?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  graphMessageId?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
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
