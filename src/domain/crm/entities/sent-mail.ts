import { Entity } from '@mikro-orm/core';
import { ObjectType } from 'type-graphql';
import { Audited } from '../../../entities/tenant-scoped';
import { BooleanColumn, DateTimeColumn, TenantIndexes, TextColumn } from '../../../entities/columns';

/** What SentMail fields mean, shared with the inputs that set them. */
export const SENT_MAIL_DOCS = {
  subject: 'Subject line.',
  recipient: 'E-mail address it was sent to.',
} as const;

@Entity({ tableName: 'sent_mail' })
@TenantIndexes('sent_mail', 'recipient', 'subject', 'opened', 'openedAt', 'messageId')
@ObjectType({ description: 'An e-mail the tenant sent, and whether it was opened.' })
export class SentMail extends Audited {
  @TextColumn({ nullable: false, description: SENT_MAIL_DOCS.recipient })
  recipient!: string;

  @TextColumn({ description: SENT_MAIL_DOCS.subject })
  subject?: string | null;

  @BooleanColumn({
    nullable: false,
    description: 'True once the recipient opened it; setting it sets `openedAt`.',
  })
  opened: boolean = false;

  @DateTimeColumn({ description: 'When the recipient opened it.' })
  openedAt?: Date | null;

  /** Set by the service on what it sends itself: an answer's In-Reply-To names it. */
  @TextColumn({ description: 'The Message-ID header of the e-mail as sent (replies from the inbox).' })
  messageId?: string | null;
}
