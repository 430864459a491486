import { callerOf } from '../../context';
import { Lead, LeadStatus } from '../../entities/crm/lead';
import { Customer } from '../../entities/reference/customer';
import { Opportunity } from '../../entities/reference/opportunity';
import { Subsidiary } from '../../entities/reference/subsidiary';
import { User } from '../../entities/user';
import { defineGroup } from '../../family/group';
import { checkRefs, refsIn } from '../../family/references';
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
      refsIn(input, [
        ['customerId', Customer],
        ['opportunityId', Opportunity],
        ['ownerId', User],
        ['qualifiedBy', User],
        ['subsidiaryId', Subsidiary],
      ]),
    );
    // Who qualified a lead, and when, is kept from the first qualification on.
    if (input.status === LeadStatus.QUALIFIED) {
      lead.qualifiedDate ??= new Date();
      lead.qualifiedBy ??= callerOf(ctx).userId;
    }
  },
});
