import { SentMail } from '../../entities/crm/sent-mail';
import { defineGroup } from '../../family/group';
import { CreateSentMailInput, UpdateSentMailInput } from './sent-mail-inputs';

export const sentMails = defineGroup({
  entity: SentMail,
  name: 'SentMail',
  plural: 'SentMails',
  resource: 'SENT_MAILS',
  createInput: CreateSentMailInput,
  updateInput: UpdateSentMailInput,
  searchable: ['recipient', 'subject'],
  beforeSave(_ctx, mail, input) {
    // Like completedAt of activities: the first opening is stamped, and unmarking clears it.
    if (mail.opened && !mail.openedAt) mail.openedAt = new Date();
    if (!mail.opened && input.opened === false && input.openedAt === undefined) mail.openedAt = null;
  },
});
