import { Entity, Index } from '@mikro-orm/core';
import { ObjectType } from 'type-graphql';
import { Audited } from '../../../entities/tenant-scoped';
import { DecimalColumn } from '../../../entities/columns';

/** What TaxPercentage fields mean, shared with the inputs that set them. */
export const TAX_PERCENTAGE_DOCS = {
  percentage: 'The rate in percent (for example 21).',
} as const;

@Entity({ tableName: 'tax_percentage' })
@Index({ name: 'tax_percentage_tenant_pct_idx', properties: ['tenantId', 'percentage'] })
@ObjectType({ description: 'A VAT or sales-tax rate a tenant invoices with.' })
export class TaxPercentage extends Audited {
  @DecimalColumn(9, 4, { nullable: false, description: TAX_PERCENTAGE_DOCS.percentage })
  percentage!: number;
}
