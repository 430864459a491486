import { stampQualification } from '../stamps';
import { Lead } from '../entities/lead';
import { Subsidiary } from '../../reference/entities/subsidiary';
import { User } from '../../../entities/user';
import { defineGroup } from '../../../family/group';
import { checkRefs, refsIn } from '../../../family/references';
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
    stampQualification(ctx, lead, input);
  },
});
