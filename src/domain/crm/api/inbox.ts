import { Field, Int, ObjectType } from 'type-graphql';
import { InboundEmail } from '../entities/inbound-email';
import { defineGroup } from '../../../family/group';
import { InboundEmailInput } from './inbound-email-inputs';

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
});
