import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { IsBoolean, IsInt, IsNotEmpty, IsOptional, Max, MaxLength, Min } from 'class-validator';
import { DateTimeISOResolver } from '../../../schema/date-time';
import { NotNullWhenGiven } from './validation';

/** A tenant's IMAP mailbox as the API shows it: never its password. */
@ObjectType({ description: 'An IMAP mailbox the service reads new e-mail from into the inbox.' })
export class Mailbox {
  @Field(() => String, { description: 'Id of the mailbox.' }) id!: string;
  @Field(() => String, { description: 'The IMAP server host.' }) host!: string;
  @Field(() => Int, { description: 'The IMAP server port.' }) port!: number;
  @Field(() => Boolean, { description: 'True: TLS from the start (port 993); false: plain or STARTTLS.' })
  secure!: boolean;
  @Field(() => String, { description: 'The user name the service signs in with.' }) username!: string;
  @Field(() => String, { description: 'The folder read (INBOX unless set).' }) folder!: string;
  @Field(() => Boolean, { description: 'False: the mailbox is not read.' }) enabled!: boolean;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When the mailbox was last read.' })
  lastPolledAt?: Date | null;
  @Field(() => String, {
    nullable: true,
    description: 'Why the last reading failed (null once a reading succeeds).',
  })
  lastError?: string | null;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When the mailbox was configured.' })
  created?: Date | null;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When the mailbox was last changed.' })
  updated?: Date | null;
}

/** Fields shared by a new mailbox and a change. */
@InputType({ description: 'Fields shared by new mailboxes and changes.' })
class MailboxFields {
  @Field(() => Int, {
    nullable: true,
    description: '993 when secure, else 143, when a new mailbox leaves it out.',
  })
  @NotNullWhenGiven()
  @IsInt()
  @Min(1)
  @Max(65535)
  port?: number;

  @Field(() => Boolean, { nullable: true, description: 'True (TLS) when a new mailbox leaves it out.' })
  @NotNullWhenGiven()
  @IsBoolean()
  secure?: boolean;

  @Field(() => String, { nullable: true, description: 'INBOX when a new mailbox leaves it out.' })
  @NotNullWhenGiven()
  @IsNotEmpty()
  @MaxLength(200)
  folder?: string;

  @Field(() => Boolean, { nullable: true, description: 'True when a new mailbox leaves it out.' })
  @NotNullWhenGiven()
  @IsBoolean()
  enabled?: boolean;
}

@InputType({ description: 'A mailbox to read; the password is stored encrypted and never answered.' })
export class CreateMailboxInput extends MailboxFields {
  @Field(() => String, { description: 'The IMAP server host.' })
  @IsNotEmpty()
  @MaxLength(253)
  host!: string;

  @Field(() => String, { description: 'The user name to sign in with.' })
  @IsNotEmpty()
  @MaxLength(320)
  username!: string;

  @Field(() => String, { description: 'The password to sign in with (write-only).' })
  @IsNotEmpty()
  @MaxLength(1000)
  password!: string;
}

@InputType({ description: 'Changes to a mailbox; absent fields stay as they are.' })
export class UpdateMailboxInput extends MailboxFields {
  @Field(() => String, { nullable: true, description: 'The IMAP server host.' })
  @NotNullWhenGiven()
  @IsNotEmpty()
  @MaxLength(253)
  host?: string;

  @Field(() => String, { nullable: true, description: 'The user name to sign in with.' })
  @NotNullWhenGiven()
  @IsNotEmpty()
  @MaxLength(320)
  username?: string;

  @Field(() => String, { nullable: true, description: 'A new password (write-only).' })
  @NotNullWhenGiven()
  @IsNotEmpty()
  @MaxLength(1000)
  password?: string;

  @Field(() => Boolean, {
    nullable: true,
    description: 'True: read the folder again from its first message (what is stored already stays once).',
  })
  @IsOptional()
  @IsBoolean()
  rescan?: boolean;
}
