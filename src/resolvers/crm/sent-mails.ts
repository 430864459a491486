import { Field, InputType } from 'type-graphql';
import { DateTimeISOResolver } from '../../graphql/date-time';
import { IsBoolean, IsEmail, IsOptional, MaxLength } from 'class-validator';
import { SentMail } from '../../entities/crm/sent-mail';
import { defineGroup } from '../../family/group';
import { NotNullWhenGiven } from './validation';
import { AUDIT_FIELDS } from '../../family/fields';

/** Fields shared by the create and update inputs; never used as an argument, so not in the schema. */
@InputType()
class SentMailFields {
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(1000) subject?: string;

  @Field(() => Boolean, { nullable: true, description: 'False when a new mail leaves it out.' })
  @NotNullWhenGiven()
  @IsBoolean()
  opened?: boolean;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Now when the mail is marked opened.' })
  openedAt?: Date;
}

@InputType({ description: 'A sent e-mail to record.' })
export class CreateSentMailInput extends SentMailFields {
  @Field(() => String) @IsEmail() recipient!: string;
}

@InputType({ description: 'Changes to a sent e-mail; absent fields stay as they are.' })
export class UpdateSentMailInput extends SentMailFields {
  @Field(() => String, { nullable: true }) @NotNullWhenGiven() @IsEmail() recipient?: string;
}

export const sentMails = defineGroup({
  entity: SentMail,
  name: 'SentMail',
  plural: 'SentMails',
  resource: 'SENT_MAILS',
  createInput: CreateSentMailInput,
  updateInput: UpdateSentMailInput,
  searchable: ['recipient', 'subject'],
  filterable: [...AUDIT_FIELDS, 'recipient', 'subject', 'opened', 'openedAt'],
  beforeSave(_ctx, mail, input) {
    // Like completedAt of activities: the first opening is stamped, and unmarking clears it.
    if (mail.opened && !mail.openedAt) mail.openedAt = new Date();
    if (!mail.opened && input.opened === false && input.openedAt === undefined) mail.openedAt = null;
  },
});
