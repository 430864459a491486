import { ArrayMaxSize, IsOptional, Length, Matches } from 'class-validator';
import { Field, InputType } from 'type-graphql';

const EVENT_PATTERN = /^(\*|[a-z_]+\.[a-z_]+)$/;

@InputType({ description: 'Changes to a webhook endpoint; absent fields stay as they are.' })
export class UpdateWebhookInput {
  @Field(() => String, { nullable: true, description: 'The HTTPS address events are posted to.' })
  @IsOptional()
  @Length(1, 2048)
  url?: string;

  @Field(() => [String], { nullable: true, description: 'The event types sent to the endpoint.' })
  @IsOptional()
  @ArrayMaxSize(200)
  @Matches(EVENT_PATTERN, { each: true, message: 'each event must be an event name or *' })
  events?: string[];

  @Field(() => String, { nullable: true, description: 'What the endpoint is for.' })
  @IsOptional()
  @Length(0, 500)
  description?: string;

  @Field(() => Boolean, { nullable: true, description: 'Turning an endpoint on clears its failing streak.' })
  active?: boolean;
}

/**
 * The update's fields with the URL required and the defaults described. Only the GraphQL
 * declarations are overridden: type-graphql keeps an overridden field in its parent's place, and
 * the validation rules are inherited.
 */
@InputType({ description: 'A new webhook endpoint.' })
export class CreateWebhookInput extends UpdateWebhookInput {
  @Field(() => String, { description: 'An https URL on a public address.' })
  override url!: string;

  @Field(() => [String], { nullable: true, description: 'Event names, or `*` for all (default).' })
  override events?: string[];

  @Field(() => Boolean, {
    nullable: true,
    description: 'False to create the endpoint paused (default true).',
  })
  override active?: boolean;
}
