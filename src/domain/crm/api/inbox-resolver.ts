import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../../../context';
import { InboundEmail } from '../entities/inbound-email';
import { can, Requires } from '../../../permissions/rules';
import { InboxCounts } from './inbox';
import { IngestInboundEmailInput } from './inbound-email-inputs';
import { inboxCounts, ingestInboundEmail } from './inbox-service';

@Resolver(() => InboundEmail)
export class InboxResolver {
  @Requires(can('READ', 'INBOX'))
  @Query(() => InboxCounts, {
    description: 'Unread (NEW) and total e-mails of the inbox, and a count per status.',
  })
  inboxUnreadCount(@Ctx() ctx: Context): Promise<InboxCounts> {
    return inboxCounts(ctx);
  }

  @Requires(can('CREATE', 'INBOX'))
  @Mutation(() => InboundEmail, {
    description:
      'Delivers an e-mail to the inbox as NEW (for mail gateways); a known Message-ID is not stored twice.',
  })
  ingestInboundEmail(
    @Arg('input', () => IngestInboundEmailInput, {
      description:
        'The e-mail as the mail gateway received it; a Message-ID already stored answers the stored e-mail.',
    })
    input: IngestInboundEmailInput,
    @Ctx() ctx: Context,
  ): Promise<InboundEmail> {
    return ingestInboundEmail(ctx, input);
  }
}
