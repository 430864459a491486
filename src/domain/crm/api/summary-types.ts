import { Field, Float, ID, ObjectType } from 'type-graphql';
import type { Customer } from '../../reference/entities/customer';
import type { Opportunity } from '../../reference/entities/opportunity';
import type { Subsidiary } from '../../reference/entities/subsidiary';
import type { User } from '../../../entities/user';

/**
 * The small views of related records that activities and leads show (`customer`, `owner`...).
 * They are derived on read from the record the id points at, never stored, so they cannot go stale.
 */

@ObjectType('CustomerSummary', { description: 'A customer as CRM records show it.' })
export class CustomerSummary {
  @Field(() => String, { nullable: true, description: "The customer's e-mail address." }) email!:
    string | null;
  @Field(() => ID, { description: 'Id of the customer.' }) id!: string;
  @Field(() => String, { nullable: true, description: 'Name of the customer.' }) name!: string | null;
  @Field(() => String, { nullable: true, description: "The customer's phone number." }) phone!: string | null;
}

@ObjectType('OpportunitySummary', { description: 'An opportunity as CRM records show it.' })
export class OpportunitySummary {
  @Field(() => ID, { description: 'Id of the opportunity.' }) id!: string;
  @Field(() => String, { nullable: true, description: 'Name of the opportunity.' }) name!: string | null;
  @Field(() => Float, { nullable: true, description: 'Expected value of the opportunity.' }) value!:
    number | null;
}

@ObjectType('UserSummary', {
  description: 'A user as CRM records show owners: displayName is the full name, else the e-mail.',
})
export class UserSummary {
  @Field(() => String, {
    nullable: true,
    description: 'First and last name, or the e-mail address without them.',
  })
  displayName!: string | null;
  @Field(() => ID, { description: 'Id of the user.' }) id!: string;
  @Field(() => String, { nullable: true, description: 'The sign-in name: the e-mail address.' })
  username!: string | null;
}

@ObjectType('SubsidiarySummary', { description: 'A subsidiary as CRM records show it.' })
export class SubsidiarySummary {
  @Field(() => String, { nullable: true, description: 'Colour of the subsidiary (CSS colour).' }) color!:
    string | null;
  @Field(() => ID, { description: 'Id of the subsidiary.' }) id!: string;
  @Field(() => String, { nullable: true, description: 'Name of the subsidiary.' }) name!: string | null;
}

export function customerSummary(c: Customer | null): CustomerSummary | null {
  return c && { email: c.email ?? null, id: c.id, name: c.name ?? null, phone: c.phone ?? null };
}

export function opportunitySummary(o: Opportunity | null): OpportunitySummary | null {
  return o && { id: o.id, name: o.name ?? null, value: o.value ?? null };
}

export function userSummary(u: User | null): UserSummary | null {
  if (!u) return null;
  const fullName = [u.firstName, u.lastName].filter(Boolean).join(' ');
  return { displayName: fullName || u.email, id: u.id, username: u.email };
}

export function subsidiarySummary(s: Subsidiary | null): SubsidiarySummary | null {
  return s && { color: s.color ?? null, id: s.id, name: s.name ?? null };
}
