import { Field, InputType } from 'type-graphql';
import { IsNotEmpty, IsOptional, MaxLength } from 'class-validator';
import { MAX_REPLY_CHARS } from '../inbox-reply';

@InputType({ description: 'An answer to an inbound e-mail.' })
export class ReplyInboundEmailInput {
  @Field(() => String, { description: 'The text of the answer.' })
  @IsNotEmpty()
  @MaxLength(MAX_REPLY_CHARS)
  body!: string;

  @Field(() => String, { nullable: true, description: '"Re: " and the e-mail\'s subject when left out.' })
  @IsOptional()
  @MaxLength(1000)
  subject?: string;
}
