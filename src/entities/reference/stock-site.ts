import { Entity, Index, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { Audited } from '../tenant-scoped';

/** What StockSite fields mean, shared with the inputs that set them. */
export const STOCK_SITE_DOCS = {
  name: 'Name of the stock site.',
  subsidiaryId: 'Id of the subsidiary the site belongs to.',
} as const;

/** A warehouse or store where stock is kept. */
@Entity({ tableName: 'stock_site' })
@Index({ name: 'stock_site_tenant_subsidiary_idx', properties: ['tenantId', 'subsidiaryId'] })
@ObjectType({ description: 'A place where stock is kept.' })
export class StockSite extends Audited {
  @Property({ type: 'text' }) @Field(() => String, { description: STOCK_SITE_DOCS.name }) name!: string;
  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: STOCK_SITE_DOCS.subsidiaryId })
  subsidiaryId?: string;
}
