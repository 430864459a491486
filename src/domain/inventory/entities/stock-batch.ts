import { DecimalType, Entity, Enum, Index, Property } from '@mikro-orm/core';
import { registerEnumType } from 'type-graphql';
import { TenantScoped } from '../../../entities/tenant-scoped';
import { TenantIndexes } from '../../../entities/columns';
import type { ProductQuantity } from './shapes';

export enum StockSource {
  PURCHASE_ORDER = 'PURCHASE_ORDER',
  PRODUCTION = 'PRODUCTION',
  ADJUSTMENT = 'ADJUSTMENT',
  TRANSFER = 'TRANSFER',
  RETURN = 'RETURN',
}
registerEnumType(StockSource, {
  name: 'StockSource',
  description: 'How a batch came into stock.',
  valuesConfig: {
    PURCHASE_ORDER: { description: 'Bought on a purchase order.' },
    PRODUCTION: { description: 'Made in production.' },
    ADJUSTMENT: { description: 'Found in a stock count.' },
    TRANSFER: { description: 'Came from another site.' },
    RETURN: { description: 'Returned by a customer.' },
  },
});

/**
 * One batch of a product at a location of a stock site: the child rows a StockInventory's
 * quantities are the sum of. A table of its own (not JSON inside the inventory) because batch
 * search filters and sorts on its fields across every product of a site. Batches change only
 * while their inventory row is locked; their history is the inventory's `events`.
 * A batch is identified within its inventory by (batchNumber, locationId), either of which may
 * be null. `locationId` and `originalPurchaseOrderId` are the client's own codes, kept as text.
 */
@Entity({ tableName: 'stock_batch' })
@TenantIndexes('stock_batch', 'inventoryId')
// Supports the foreign key to product: deleting a product checks for its batches.
@TenantIndexes('stock_batch', 'productId')
@Index({ name: 'stock_batch_tenant_site_product_idx', properties: ['tenantId', 'siteId', 'productId'] })
@Index({ name: 'stock_batch_tenant_batch_number_idx', properties: ['tenantId', 'siteId', 'batchNumber'] })
@Index({ name: 'stock_batch_tenant_location_id_idx', properties: ['tenantId', 'siteId', 'locationId'] })
@Index({
  name: 'stock_batch_tenant_expiration_date_idx',
  properties: ['tenantId', 'siteId', 'expirationDate'],
})
@Index({
  name: 'stock_batch_tenant_last_stock_date_idx',
  properties: ['tenantId', 'siteId', 'lastStockDate'],
})
@Index({
  name: 'stock_batch_tenant_production_date_idx',
  properties: ['tenantId', 'siteId', 'productionDate'],
})
@Index({ name: 'stock_batch_tenant_quantity_idx', properties: ['tenantId', 'siteId', 'quantity'] })
@Index({ name: 'stock_batch_tenant_unit_price_idx', properties: ['tenantId', 'siteId', 'unitPrice'] })
export class StockBatch extends TenantScoped {
  @Property({ type: 'uuid' })
  inventoryId!: string;

  @Property({ type: 'uuid' })
  siteId!: string;

  @Property({ type: 'uuid' })
  productId!: string;

  @Property({ type: 'text', nullable: true })
  locationId?: string | null;

  @Property({ type: 'text', nullable: true })
  batchNumber?: string | null;

  @Property({ type: new DecimalType('number'), columnType: 'numeric(14,4)' })
  quantity: number = 0;

  @Property({ type: 'timestamptz', nullable: true })
  expirationDate?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  productionDate?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  lastStockDate?: Date | null;

  @Property({ type: 'text', nullable: true })
  originalPurchaseOrderId?: string | null;

  @Enum({ items: () => StockSource, nullable: true })
  stockSource?: StockSource | null;

  @Property({ type: 'json' })
  uomSplit: ProductQuantity[] = [];

  @Property({ type: new DecimalType('number'), columnType: 'numeric(14,4)' })
  unitPrice: number = 0;
}
