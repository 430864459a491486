import { Entity, Index } from '@mikro-orm/core';
import { ObjectType } from 'type-graphql';
import { Audited } from '../../../entities/tenant-scoped';
import { TextColumn, UuidColumn } from '../../../entities/columns';

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
  @TextColumn({ nullable: false, description: STOCK_SITE_DOCS.name })
  name!: string;

  @UuidColumn({ description: STOCK_SITE_DOCS.subsidiaryId })
  subsidiaryId?: string | null;
}
