import { DecimalType, Entity, Index, Property } from '@mikro-orm/core';
import { Field, Float, ObjectType } from 'type-graphql';
import { Audited } from '../tenant-scoped';

/** What TaxPercentage fields mean, shared with the inputs that set them. */
export const TAX_PERCENTAGE_DOCS = {
  percentage: 'The rate in percent (for example 21).',
} as const;

@Entity({ tableName: 'tax_percentage' })
@Index({ name: 'tax_percentage_tenant_pct_idx', properties: ['tenantId', 'percentage'] })
@ObjectType({ description: 'A VAT or sales-tax rate a tenant invoices with.' })
export class TaxPercentage extends Audited {
  @Property({ type: new DecimalType('number'), columnType: 'numeric(9,4)' })
  @Field(() => Float, { description: TAX_PERCENTAGE_DOCS.percentage })
  percentage!: number;
}
