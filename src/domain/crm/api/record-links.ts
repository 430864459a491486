import { Customer } from '../../reference/entities/customer';
import { Opportunity } from '../../reference/entities/opportunity';
import { User } from '../../../entities/user';

/**
 * What an activity and a lead both link to, by input field: the customer and opportunity they are
 * about and the user who owns them. Each must exist in the caller's tenant (a 404 names it).
 */
export const CRM_RECORD_LINKS = [
  ['customerId', Customer],
  ['opportunityId', Opportunity],
  ['ownerId', User],
] as const;
