import { Field, InputType } from 'type-graphql';
import { IsBoolean, IsEmail, IsOptional, MaxLength } from 'class-validator';
import { DateTimeISOResolver } from '../../../schema/date-time';
import { SENT_MAIL_DOCS } from '../entities/sent-mail';
import { NotNullWhenGiven } from './validation';

/** Fields shared by the create and update inputs; never used as an argument, so not in the schema. */
@InputType({ description: 'Fields shared by new sent mails and changes.' })
class SentMailFields {
  @Field(() => String, { nullable: true, description: SENT_MAIL_DOCS.subject })
  @IsOptional()
  @MaxLength(1000)
  subject?: string;

  @Field(() => Boolean, { nullable: true, description: 'False when a new mail leaves it out.' })
  @NotNullWhenGiven()
  @IsBoolean()
  opened?: boolean;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Now when the mail is marked opened.' })
  openedAt?: Date;
}

@InputType({ description: 'A sent e-mail to record.' })
export class CreateSentMailInput extends SentMailFields {
  @Field(() => String, { description: SENT_MAIL_DOCS.recipient }) @IsEmail() recipient!: string;
}

@InputType({ description: 'Changes to a sent e-mail; absent fields stay as they are.' })
export class UpdateSentMailInput extends SentMailFields {
  @Field(() => String, { nullable: true, description: SENT_MAIL_DOCS.recipient })
  @NotNullWhenGiven()
  @IsEmail()
  recipient?: string;
}
