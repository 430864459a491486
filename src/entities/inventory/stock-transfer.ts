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
registerEnumType(TransferStatus, {
  name: 'TransferStatus',
  description: 'Where a stock transfer stands.',
  valuesConfig: {
    DRAFT: { description: 'Being written.' },
    REQUESTED: { description: 'Asked for.' },
    APPROVED: { description: 'Approved.' },
    PICKING: { description: 'Being picked.' },
    SHIPPED: { description: 'On its way.' },
    PARTIALLY_DELIVERED: { description: 'Delivered in part.' },
    DELIVERED: { description: 'Delivered in full.' },
    CANCELLED: { description: 'Cancelled.' },
  },
});

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
registerEnumType(TransferPriority, {
  name: 'TransferPriority',
  description: 'How urgent a stock transfer is.',
  valuesConfig: {
    LOW: { description: 'Low.' },
    MEDIUM: { description: 'Medium.' },
    HIGH: { description: 'High.' },
    URGENT: { description: 'Urgent.' },
  },
});

export enum DeliveryMethod {
  REGULAR = 'REGULAR',
  EXPRESS = 'EXPRESS',
  PICKUP = 'PICKUP',
}
registerEnumType(DeliveryMethod, {
  name: 'DeliveryMethod',
  description: 'How the goods of a stock transfer travel.',
  valuesConfig: {
    REGULAR: { description: 'Regular delivery.' },
    EXPRESS: { description: 'Express delivery.' },
    PICKUP: { description: 'Picked up at the source site.' },
  },
});

export enum IncomingTransferStatus {
  EXPECTED = 'EXPECTED',
  PARTIALLY_RECEIVED = 'PARTIALLY_RECEIVED',
  RECEIVED = 'RECEIVED',
  CANCELLED = 'CANCELLED',
}
registerEnumType(IncomingTransferStatus, {
  name: 'IncomingTransferStatus',
  description: 'Where the receiving side of a transfer stands.',
  valuesConfig: {
    EXPECTED: { description: 'Not arrived yet.' },
    PARTIALLY_RECEIVED: { description: 'Received in part.' },
    RECEIVED: { description: 'Received in full.' },
    CANCELLED: { description: 'Will not arrive.' },
  },
});

@ObjectType('TransferProduct', { description: 'A product line of a stock transfer.' })
@InputType('TransferProductInput', { description: 'A product line of a transfer, as sent.' })
export class TransferProduct {
  @Field(() => Float, { nullable: true, description: 'Base units per unit (default 1).' })
  @IsOptional()
  @Min(0)
  baseUnitConversion?: number | null;

  @Field(() => Float, { nullable: true, description: 'quantity x baseUnitConversion (computed).' })
  baseUnitQuantity?: number | null;

  @Field(() => Float, { nullable: true, description: 'pricePerUnit / baseUnitConversion (computed).' })
  pricePerBaseUnit?: number | null;

  @Field(() => Float, { nullable: true, description: "Price of one of the line's unit." })
  @IsOptional()
  @Min(0)
  pricePerUnit?: number | null;

  @Field(() => Float, { nullable: true, description: "Quantity, in the line's unit." })
  @IsOptional()
  @Min(0)
  quantity?: number | null;

  @Field(() => Float, { nullable: true, description: 'quantity x pricePerUnit (computed).' })
  totalPrice?: number | null;

  @Field(() => String, { nullable: true, description: 'Id of the product.' }) productId?: string | null;
  @Field(() => String, { nullable: true, description: 'The unit the quantity is in.' }) unit?: string | null;
}

@ObjectType('BatchAllocation', { description: 'A quantity picked from a batch for a transfer.' })
@InputType('BatchAllocationInput', { description: 'A quantity taken from one batch, as sent.' })
export class BatchAllocation {
  @Field(() => String, { nullable: true, description: 'Number of the batch.' }) batchNumber?: string | null;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When the batch expires.' })
  expirationDate?: string | null;
  @Field(() => String, { nullable: true, description: 'Where in the site the batch lies.' }) locationId?:
    string | null;
  @Field(() => String, { nullable: true, description: 'Id of the product.' }) productId?: string | null;

  @Field(() => Float, { nullable: true, description: 'Quantity taken from the batch.' })
  @IsOptional()
  @Min(0)
  quantity?: number | null;
}

@ObjectType('ReservedProduct', { description: 'A quantity of a product reserved at a site.' })
@InputType('ReservedProductInput', { description: 'A quantity of a product reserved at a site, as sent.' })
export class ReservedProduct {
  @Field(() => String, { nullable: true, description: 'Id of the product.' }) productId?: string | null;

  @Field(() => Float, { nullable: true, description: 'Quantity reserved.' })
  @IsOptional()
  @Min(0)
  quantity?: number | null;

  @Field(() => String, { nullable: true, description: 'Id of the stock site.' }) siteId?: string | null;
}

/** What CancelledProducts fields mean, shared with the inputs that set them. */
export const CANCELLED_PRODUCTS_DOCS = {
  products: 'The lines cancelled.',
} as const;

@ObjectType('CancelledProducts', { description: 'The cancelled quantities of a transfer.' })
export class CancelledProducts {
  @Field(() => Boolean, { description: 'Whether anything was cancelled (computed).' })
  isNotEmpty!: boolean;

  @Field(() => [ProductQuantity], { description: CANCELLED_PRODUCTS_DOCS.products })
  products!: ProductQuantity[];
}

@InputType('CancelledProductsInput', { description: 'Lines of a transfer that were cancelled, as sent.' })
export class CancelledProductsInput {
  @Field(() => [ProductQuantity], { description: CANCELLED_PRODUCTS_DOCS.products })
  @ValidateNested({ each: true })
  products!: ProductQuantity[];
}

/** What StockTransfer fields mean, shared with the inputs that set them. */
export const STOCK_TRANSFER_DOCS = {
  note: 'Note on the transfer.',
  destinationStockSiteId: 'Id of the stock site the goods go to.',
  subsidiaryId: 'Id of the subsidiary the transfer belongs to; limits who sees it.',
  incomingStockTransferId: 'Id of the incoming transfer at the destination.',
  status: 'Where the transfer stands.',
  priority: 'How urgent the transfer is.',
  deliveryMethod: 'How the goods travel.',
  deliveryDate: 'When the goods should arrive.',
  picklistIds: 'Ids of the pick lists made for the transfer.',
  batchAllocations: 'The batches picked for the transfer.',
  products: 'The lines ordered.',
  reservedProducts: 'The quantities reserved, per site.',
  cancelledProducts: 'The lines cancelled.',
} as const;

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
  @Field(() => String, { nullable: true, description: STOCK_TRANSFER_DOCS.note })
  note?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: 'The source site.' })
  stockSiteId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: STOCK_TRANSFER_DOCS.destinationStockSiteId })
  destinationStockSiteId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, {
    nullable: true,
    description: STOCK_TRANSFER_DOCS.subsidiaryId,
  })
  subsidiaryId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: STOCK_TRANSFER_DOCS.incomingStockTransferId })
  incomingStockTransferId?: string | null;

  @Enum({ items: () => IncomingTransferStatus, nullable: true })
  @Field(() => IncomingTransferStatus, { nullable: true, description: 'Shown in the enriched form.' })
  @Extensions({ rest: false })
  incomingStockTransferStatus?: IncomingTransferStatus | null;

  @Enum({ items: () => TransferStatus })
  @Field(() => TransferStatus, { description: STOCK_TRANSFER_DOCS.status })
  status: TransferStatus = TransferStatus.DRAFT;

  @Enum({ items: () => TransferPriority, nullable: true })
  @Field(() => TransferPriority, { nullable: true, description: STOCK_TRANSFER_DOCS.priority })
  priority?: TransferPriority | null = TransferPriority.LOW;

  @Enum({ items: () => DeliveryMethod, nullable: true })
  @Field(() => DeliveryMethod, { nullable: true, description: STOCK_TRANSFER_DOCS.deliveryMethod })
  deliveryMethod?: DeliveryMethod | null = DeliveryMethod.REGULAR;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true, description: STOCK_TRANSFER_DOCS.deliveryDate })
  deliveryDate?: Date | null;

  @Property({ type: 'text[]' })
  @Field(() => [String], { description: STOCK_TRANSFER_DOCS.picklistIds })
  picklistIds: string[] = [];

  @Property({ type: 'json' })
  @Field(() => [BatchAllocation], { description: STOCK_TRANSFER_DOCS.batchAllocations })
  batchAllocations: BatchAllocation[] = [];

  @Property({ type: 'json' })
  @Field(() => [TransferProduct], { description: STOCK_TRANSFER_DOCS.products })
  products: TransferProduct[] = [];

  @Property({ type: 'json' })
  @Field(() => [ReservedProduct], { description: STOCK_TRANSFER_DOCS.reservedProducts })
  reservedProducts: ReservedProduct[] = [];

  @Property({ type: 'boolean' })
  @Field(() => Boolean, {
    description: 'Cancelled as a whole, or every ordered quantity cancelled (computed).',
  })
  isFullyCancelled: boolean = false;

  @Property({ type: 'json' })
  @Field(() => CancelledProducts, { description: STOCK_TRANSFER_DOCS.cancelledProducts })
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
