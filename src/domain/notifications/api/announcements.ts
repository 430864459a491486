import { Arg, Ctx, Field, InputType, Int, Mutation, ObjectType, Resolver } from 'type-graphql';
import type { Context } from '../../../context';
import { can, Requires } from '../../../permissions/rules';
import { announce } from '../announce';
import { TextField } from './notification-inputs';

@InputType({ description: 'An announcement to every user of the tenant.' })
export class AnnouncementInput {
  @TextField.title()
  title!: string;

  @TextField.body()
  body?: string;

  @TextField.actionUrl()
  actionUrl?: string;
}

@ObjectType({ description: 'Whom an announcement was addressed to.' })
export class AnnouncementResult {
  @Field(() => Int, {
    description: 'How many users it was addressed to (each receives it as their settings allow).',
  })
  recipients!: number;
}

@Resolver()
export class AnnouncementResolver {
  @Requires(can('CREATE', 'NOTIFICATIONS'))
  @Mutation(() => AnnouncementResult, {
    description:
      'Sends a `system.announcement` notification to every active user of the tenant but the caller.',
  })
  async announce(
    @Arg('input', () => AnnouncementInput, { description: 'The announcement.' }) input: AnnouncementInput,
    @Ctx() ctx: Context,
  ): Promise<AnnouncementResult> {
    return { recipients: await announce(ctx, input) };
  }
}
