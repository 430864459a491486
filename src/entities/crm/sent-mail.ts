import { Entity, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { DateTimeISOResolver } from '../../graphql/date-time';
import { Audited } from '../tenant-scoped';
import { TenantIndexes } from './tenant-indexes';

@Entity({ tableName: 'sent_mail' })
@TenantIndexes('sent_mail', 'recipient', 'subject', 'opened', 'openedAt')
@ObjectType({ description: 'An e-mail the tenant sent, and whether it was opened.' })
export class SentMail extends Audited {
  @Property({ type: 'text' })
  @Field(() => String)
  recipient!: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  subject?: string | null;

  @Property({ type: 'boolean' })
  @Field(() => Boolean)
  opened: boolean = false;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true })
  openedAt?: Date | null;
}
