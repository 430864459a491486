import { Entity, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { DateTimeISOResolver } from '../../graphql/date-time';
import { Audited } from '../tenant-scoped';
import { TenantIndexes } from './tenant-indexes';

/** What SentMail fields mean, shared with the inputs that set them. */
export const SENT_MAIL_DOCS = {
  subject: 'Subject line.',
  recipient: 'E-mail address it was sent to.',
} as const;

@Entity({ tableName: 'sent_mail' })
@TenantIndexes('sent_mail', 'recipient', 'subject', 'opened', 'openedAt')
@ObjectType({ description: 'An e-mail the tenant sent, and whether it was opened.' })
export class SentMail extends Audited {
  @Property({ type: 'text' })
  @Field(() => String, { description: SENT_MAIL_DOCS.recipient })
  recipient!: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: SENT_MAIL_DOCS.subject })
  subject?: string | null;

  @Property({ type: 'boolean' })
  @Field(() => Boolean, { description: 'True once the recipient opened it; setting it sets `openedAt`.' })
  opened: boolean = false;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When the recipient opened it.' })
  openedAt?: Date | null;
}
