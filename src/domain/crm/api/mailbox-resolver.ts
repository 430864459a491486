import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../../../context';
import { callerOf } from '../../../context';
import { can, Requires } from '../../../permissions/rules';
import { notFound } from '../../../errors';
import { createMailbox, deleteMailbox, listMailboxes, updateMailbox } from '../mailboxes';
import { CreateMailboxInput, Mailbox, UpdateMailboxInput } from './mailbox-inputs';

@Resolver(() => Mailbox)
export class MailboxResolver {
  @Requires(can('READ', 'INBOX'))
  @Query(() => [Mailbox], {
    description: "The tenant's IMAP mailboxes read into the inbox (never their passwords).",
  })
  mailboxes(@Ctx() ctx: Context): Promise<Mailbox[]> {
    return listMailboxes(ctx.em, callerOf(ctx).tenantId);
  }

  @Requires(can('UPDATE', 'INBOX'))
  @Mutation(() => Mailbox, {
    description:
      'Configures an IMAP mailbox the crm.mailboxes job reads new e-mail from; the password is stored encrypted. Without MAILBOX_SECRET_KEY, or for an account configured already: 409.',
  })
  createMailbox(
    @Arg('input', () => CreateMailboxInput, { description: 'The server, account and folder.' })
    input: CreateMailboxInput,
    @Ctx() ctx: Context,
  ): Promise<Mailbox> {
    const caller = callerOf(ctx);
    return createMailbox(ctx.em, caller.tenantId, caller.email, input);
  }

  @Requires(can('UPDATE', 'INBOX'))
  @Mutation(() => Mailbox, {
    description: 'Changes a mailbox; another server, account or folder is read from its first message.',
  })
  updateMailbox(
    @Arg('id', () => ID, { description: 'Id of the mailbox.' }) id: string,
    @Arg('input', () => UpdateMailboxInput, { description: 'The fields to change.' })
    input: UpdateMailboxInput,
    @Ctx() ctx: Context,
  ): Promise<Mailbox> {
    const caller = callerOf(ctx);
    return updateMailbox(ctx.em, caller.tenantId, caller.email, id, input);
  }

  @Requires(can('UPDATE', 'INBOX'))
  @Mutation(() => Boolean, { description: 'Removes a mailbox; the e-mails read from it stay.' })
  async deleteMailbox(
    @Arg('id', () => ID, { description: 'Id of the mailbox.' }) id: string,
    @Ctx() ctx: Context,
  ): Promise<boolean> {
    if (!(await deleteMailbox(ctx.em, callerOf(ctx).tenantId, id))) throw notFound(`Mailbox ${id} not found`);
    return true;
  }
}
