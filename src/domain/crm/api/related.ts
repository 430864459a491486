import type { Context } from '../../../context';
import { Customer } from '../../reference/entities/customer';
import { Opportunity } from '../../reference/entities/opportunity';
import { Subsidiary } from '../../reference/entities/subsidiary';
import { User } from '../../../entities/user';
import { loaderById } from '../../../family/loaders';
import { registerLinkSource } from '../../../family/links';
import { fullNameSql } from '../../../family/link-sql';
import {
  customerSummary,
  opportunitySummary,
  subsidiarySummary,
  userSummary,
  type CustomerSummary,
  type OpportunitySummary,
  type SubsidiarySummary,
  type UserSummary,
} from './summary-types';

// The summaries below as SQL, so searches filter and sort on `customer.name`, `owner.displayName`...
registerLinkSource('CustomerSummary', { entity: Customer.name });
registerLinkSource('OpportunitySummary', { entity: Opportunity.name });
registerLinkSource('SubsidiarySummary', { entity: Subsidiary.name });
registerLinkSource('UserSummary', {
  entity: User.name,
  derived: {
    displayName: (a) => `coalesce(${fullNameSql(a)}, ${a}.email)`,
    username: (a) => `${a}.email`,
  },
});

/**
 * The derived views of related records, loaded through the request's loaders: a page of any
 * size costs one query per kind of related record.
 */
export async function customerOf(ctx: Context, id?: string | null): Promise<CustomerSummary | null> {
  return id ? customerSummary(await loaderById(ctx, Customer).load(id)) : null;
}

export async function opportunityOf(ctx: Context, id?: string | null): Promise<OpportunitySummary | null> {
  return id ? opportunitySummary(await loaderById(ctx, Opportunity).load(id)) : null;
}

export async function userOf(ctx: Context, id?: string | null): Promise<UserSummary | null> {
  return id ? userSummary(await loaderById(ctx, User).load(id)) : null;
}

export async function subsidiaryOf(ctx: Context, id?: string | null): Promise<SubsidiarySummary | null> {
  return id ? subsidiarySummary(await loaderById(ctx, Subsidiary).load(id)) : null;
}
