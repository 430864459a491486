import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { SentMail } from '../entities/sent-mail';
import type { Context } from '../../../context';
import { InboundEmail } from '../entities/inbound-email';
import { can, Requires } from '../../../permissions/rules';
import { ReplyInboundEmailInput } from './inbox-reply-inputs';
import { InboxCounts } from './inbox';
import { IngestInboundEmailInput } from './inbound-email-inputs';
import { inboxCounts, ingestInboundEmail, receiveInboundMessage, replyToInboundEmail } from './inbox-service';

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

  @Requires(can('CREATE', 'INBOX'))
  @Mutation(() => InboundEmail, {
    description:
      "Stores a raw RFC 5322 message (for mail providers' inbound webhooks) as NEW: threaded by In-Reply-To/References, linked to the lead or customer of its sender, its attachments stored as files. A Message-ID stored already answers the stored e-mail; a message that cannot be read is a 400.",
  })
  receiveInboundMessage(
    @Arg('message', () => String, { description: 'The whole message, base64.' }) message: string,
    @Ctx() ctx: Context,
  ): Promise<InboundEmail> {
    return receiveInboundMessage(ctx, message);
  }

  @Requires(can('UPDATE', 'INBOX'))
  @Mutation(() => SentMail, {
    description:
      'Answers an inbound e-mail through the outbox (retried like every e-mail) with In-Reply-To and References set; writes a SentMail and marks the e-mail REPLIED.',
  })
  replyToInboundEmail(
    @Arg('id', () => ID, { description: 'Id of the inbound e-mail.' }) id: string,
    @Arg('input', () => ReplyInboundEmailInput, { description: 'The answer.' }) input: ReplyInboundEmailInput,
    @Ctx() ctx: Context,
  ): Promise<SentMail> {
    return replyToInboundEmail(ctx, id, input);
  }
}
