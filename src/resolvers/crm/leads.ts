import { callerOf } from '../../context';
import { Lead, LeadStatus } from '../../entities/crm/lead';
import { Subsidiary } from '../../entities/reference/subsidiary';
import { User } from '../../entities/user';
import { defineGroup } from '../../family/group';
import { checkRefs, refsIn } from '../../family/references';
import { CRM_RECORD_LINKS } from './record-links';
import { LeadInput } from './lead-inputs';

export const leads = defineGroup({
  entity: Lead,
  name: 'Lead',
  plural: 'Leads',
  resource: 'LEADS',
  createInput: LeadInput,
  updateInput: LeadInput,
  searchable: ['firstName', 'lastName', 'companyName', 'email'],
  scope: 'subsidiaryId',
  async beforeSave(ctx, lead, input) {
    await checkRefs(
      ctx,
      404,
      refsIn(input, [...CRM_RECORD_LINKS, ['qualifiedBy', User], ['subsidiaryId', Subsidiary]]),
    );
    // Who qualified a lead, and when, is kept from the first qualification on.
    if (input.status === LeadStatus.QUALIFIED) {
      lead.qualifiedDate ??= new Date();
      lead.qualifiedBy ??= callerOf(ctx).userId;
    }
  },
});
