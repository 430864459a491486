import { Entity, Index, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { Audited } from '../tenant-scoped';

/** A warehouse or store where stock is kept. */
@Entity({ tableName: 'stock_site' })
@Index({ name: 'stock_site_tenant_subsidiary_idx', properties: ['tenantId', 'subsidiaryId'] })
@ObjectType({ description: 'A place where stock is kept.' })
export class StockSite extends Audited {
  @Property({ type: 'text' }) @Field(() => String, { description: 'Name of the stock site.' }) name!: string;
  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: 'Id of the subsidiary the site belongs to.' })
  subsidiaryId?: string;
}
