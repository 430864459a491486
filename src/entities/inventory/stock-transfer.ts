import { Entity, Enum, Index, Property, Unique } from '@mikro-orm/core';
import { Extensions, Field, Float, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from '../../graphql/date-time';
import { IsOptional, Min, ValidateNested } from 'class-validator';
import { Audited } from '../tenant-scoped';
import { ProductQuantity } from './shapes';

export enum TransferStatus {
  DRAFT = 'DRAFT',
  REQUESTED = 'REQUESTED',
  APPROVED = 'APPROVED',
  PICKING = 'PICKING',
  SHIPPED = 'SHIPPED',
  PARTIALLY_DELIVERED = 'PARTIALLY_DELIVERED',
  DELIVERED = 'DELIVERED',
  CANCELLED = 'CANCELLED',
}
registerEnumType(TransferStatus, { name: 'TransferStatus', description: 'Where a stock transfer stands.' });

/** The statuses in which what was picked has left the source site. */
export const SHIPPED_STATUSES: readonly TransferStatus[] = [
  TransferStatus.SHIPPED,
  TransferStatus.PARTIALLY_DELIVERED,
  TransferStatus.DELIVERED,
];

export enum TransferPriority {
  LOW = 'LOW',
  MEDIUM = 'MEDIUM',
  HIGH = 'HIGH',
  URGENT = 'URGENT',
}
registerEnumType(TransferPriority, { name: 'TransferPriority' });

export enum DeliveryMethod {
  REGULAR = 'REGULAR',
  EXPRESS = 'EXPRESS',
  PICKUP = 'PICKUP',
}
registerEnumType(DeliveryMethod, { name: 'DeliveryMethod' });

export enum IncomingTransferStatus {
  EXPECTED = 'EXPECTED',
  PARTIALLY_RECEIVED = 'PARTIALLY_RECEIVED',
  RECEIVED = 'RECEIVED',
  CANCELLED = 'CANCELLED',
}
registerEnumType(IncomingTransferStatus, {
  name: 'IncomingTransferStatus',
  description: 'Where the receiving side of a transfer stands.',
});

@ObjectType('TransferProduct', { description: 'A product line of a stock transfer.' })
@InputType('TransferProductInput')
export class TransferProduct {
  @Field(() => Float, { nullable: true, description: 'Base units per unit (default 1).' })
  @IsOptional()
  @Min(0)
  baseUnitConversion?: number | null;

  @Field(() => Float, { nullable: true, description: 'quantity x baseUnitConversion (computed).' })
  baseUnitQuantity?: number | null;

  @Field(() => Float, { nullable: true, description: 'pricePerUnit / baseUnitConversion (computed).' })
  pricePerBaseUnit?: number | null;

  @Field(() => Float, { nullable: true })
  @IsOptional()
  @Min(0)
  pricePerUnit?: number | null;

  @Field(() => Float, { nullable: true })
  @IsOptional()
  @Min(0)
  quantity?: number | null;

  @Field(() => Float, { nullable: true, description: 'quantity x pricePerUnit (computed).' })
  totalPrice?: number | null;

  @Field(() => String, { nullable: true }) productId?: string | null;
  @Field(() => String, { nullable: true }) unit?: string | null;
}

@ObjectType('BatchAllocation', { description: 'A quantity picked from a batch for a transfer.' })
@InputType('BatchAllocationInput')
export class BatchAllocation {
  @Field(() => String, { nullable: true }) batchNumber?: string | null;
  @Field(() => DateTimeISOResolver, { nullable: true }) expirationDate?: string | null;
  @Field(() => String, { nullable: true }) locationId?: string | null;
  @Field(() => String, { nullable: true }) productId?: string | null;

  @Field(() => Float, { nullable: true })
  @IsOptional()
  @Min(0)
  quantity?: number | null;
}

@ObjectType('ReservedProduct', { description: 'A quantity of a product reserved at a site.' })
@InputType('ReservedProductInput')
export class ReservedProduct {
  @Field(() => String, { nullable: true }) productId?: string | null;

  @Field(() => Float, { nullable: true })
  @IsOptional()
  @Min(0)
  quantity?: number | null;

  @Field(() => String, { nullable: true }) siteId?: string | null;
}

@ObjectType('CancelledProducts', { description: 'The cancelled quantities of a transfer.' })
export class CancelledProducts {
  @Field(() => Boolean, { description: 'Whether anything was cancelled (computed).' })
  isNotEmpty!: boolean;

  @Field(() => [ProductQuantity])
  products!: ProductQuantity[];
}

@InputType('CancelledProductsInput')
export class CancelledProductsInput {
  @Field(() => [ProductQuantity])
  @ValidateNested({ each: true })
  products!: ProductQuantity[];
}

/**
 * A transfer of stock from one site to another. This class is the search form of the
 * specification; the enriched form (EnrichedStockTransfer) is built from it. Cancelled,
 * delivered and returned quantities, batch allocations and reservations are stored; the
 * per-product progress of the enriched form is computed from them.
 */
@Entity({ tableName: 'stock_transfer' })
@Unique({ name: 'stock_transfer_tenant_transfer_number_uq', properties: ['tenantId', 'transferNumber'] })
@Index({ name: 'stock_transfer_tenant_status_idx', properties: ['tenantId', 'status'] })
@Index({ name: 'stock_transfer_tenant_stock_site_id_idx', properties: ['tenantId', 'stockSiteId'] })
@Index({
  name: 'stock_transfer_tenant_destination_stock_site_id_idx',
  properties: ['tenantId', 'destinationStockSiteId'],
})
@Index({ name: 'stock_transfer_tenant_subsidiary_id_idx', properties: ['tenantId', 'subsidiaryId'] })
// Supports the self-reference: deleting a transfer clears the transfers that name it as incoming.
@Index({
  name: 'stock_transfer_tenant_incoming_stock_transfer_id_idx',
  properties: ['tenantId', 'incomingStockTransferId'],
})
@Index({ name: 'stock_transfer_tenant_delivery_date_idx', properties: ['tenantId', 'deliveryDate'] })
@Index({ name: 'stock_transfer_tenant_created_idx', properties: ['tenantId', 'created'] })
@ObjectType({ description: 'A transfer of stock between two sites (search form).' })
export class StockTransfer extends Audited {
  @Property({ type: 'text' })
  @Field(() => String, { description: 'ST-000001, consecutive per tenant.' })
  transferNumber!: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  note?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: 'The source site.' })
  stockSiteId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true })
  destinationStockSiteId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true })
  subsidiaryId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true })
  incomingStockTransferId?: string | null;

  @Enum({ items: () => IncomingTransferStatus, nullable: true })
  @Field(() => IncomingTransferStatus, { nullable: true, description: 'Shown in the enriched form.' })
  @Extensions({ rest: false })
  incomingStockTransferStatus?: IncomingTransferStatus | null;

  @Enum({ items: () => TransferStatus })
  @Field(() => TransferStatus)
  status: TransferStatus = TransferStatus.DRAFT;

  @Enum({ items: () => TransferPriority, nullable: true })
  @Field(() => TransferPriority, { nullable: true })
  priority?: TransferPriority | null = TransferPriority.LOW;

  @Enum({ items: () => DeliveryMethod, nullable: true })
  @Field(() => DeliveryMethod, { nullable: true })
  deliveryMethod?: DeliveryMethod | null = DeliveryMethod.REGULAR;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true })
  deliveryDate?: Date | null;

  @Property({ type: 'text[]' })
  @Field(() => [String])
  picklistIds: string[] = [];

  @Property({ type: 'json' })
  @Field(() => [BatchAllocation])
  batchAllocations: BatchAllocation[] = [];

  @Property({ type: 'json' })
  @Field(() => [TransferProduct])
  products: TransferProduct[] = [];

  @Property({ type: 'json' })
  @Field(() => [ReservedProduct])
  reservedProducts: ReservedProduct[] = [];

  @Property({ type: 'boolean' })
  @Field(() => Boolean, {
    description: 'Cancelled as a whole, or every ordered quantity cancelled (computed).',
  })
  isFullyCancelled: boolean = false;

  @Property({ type: 'json' })
  @Field(() => CancelledProducts)
  cancelledProducts: CancelledProducts = { isNotEmpty: false, products: [] };

  @Property({ type: 'json' })
  @Field(() => [ProductQuantity], { description: 'Quantities received at the destination.' })
  @Extensions({ rest: false })
  deliveredProducts: ProductQuantity[] = [];

  @Property({ type: 'json' })
  @Field(() => [ProductQuantity], { description: 'Quantities sent back after delivery.' })
  @Extensions({ rest: false })
  returnedProducts: ProductQuantity[] = [];
}
