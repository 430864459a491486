import { stampOpening } from '../stamps';
import { SentMail } from '../entities/sent-mail';
import { defineGroup } from '../../../family/group';
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
    stampOpening(mail, input);
  },
});
