import { Entity, Unique } from '@mikro-orm/core';
import { Extensions, Field, Float, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { IsOptional, Min, ValidateNested } from 'class-validator';
import { DateTimeISOResolver } from '../../../schema/date-time';
import { Audited } from '../../../entities/tenant-scoped';
import {
  BooleanColumn,
  DateTimeColumn,
  EnumColumn,
  JsonColumn,
  TenantIndexes,
  TextColumn,
  TextListColumn,
  UuidColumn,
} from '../../../entities/columns';
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
  CLOSED = 'CLOSED',
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
    CLOSED: { description: 'Closed after shipping: what had not arrived was written off (writtenOff).' },
  },
});

/** The statuses in which what was picked has left the source site. */
export const SHIPPED_STATUSES: readonly TransferStatus[] = [
  TransferStatus.SHIPPED,
  TransferStatus.PARTIALLY_DELIVERED,
  TransferStatus.DELIVERED,
  TransferStatus.CLOSED,
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

@ObjectType('TransferWriteOff', {
  description: 'What of a shipped transfer never arrived and was written off, and why.',
})
export class TransferWriteOff {
  @Field(() => String, { description: 'Why the stock was written off (lost, damaged...).' })
  reason!: string;

  @Field(() => DateTimeISOResolver, { description: 'When it was written off.' })
  writtenOffAt!: string;

  @Field(() => String, { description: 'Who wrote it off.' })
  writtenOffBy!: string;

  @Field(() => [ProductQuantity], {
    description: "The quantities written off, in the lines' units: shipped less delivered.",
  })
  products!: ProductQuantity[];
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
@TenantIndexes('stock_transfer', 'status', 'stockSiteId')
@TenantIndexes('stock_transfer', 'destinationStockSiteId')
@TenantIndexes('stock_transfer', 'subsidiaryId')
// Supports the self-reference: deleting a transfer clears the transfers that name it as incoming.
@TenantIndexes('stock_transfer', 'incomingStockTransferId')
@TenantIndexes('stock_transfer', 'deliveryDate', 'created')
@ObjectType({ description: 'A transfer of stock between two sites (search form).' })
export class StockTransfer extends Audited {
  @TextColumn({ nullable: false, description: 'ST-000001, consecutive per tenant.' })
  transferNumber!: string;

  @TextColumn({ description: STOCK_TRANSFER_DOCS.note })
  note?: string | null;

  @UuidColumn({ description: 'The source site.' })
  stockSiteId?: string | null;

  @UuidColumn({ description: STOCK_TRANSFER_DOCS.destinationStockSiteId })
  destinationStockSiteId?: string | null;

  @UuidColumn({ description: STOCK_TRANSFER_DOCS.subsidiaryId })
  subsidiaryId?: string | null;

  @UuidColumn({ description: STOCK_TRANSFER_DOCS.incomingStockTransferId })
  incomingStockTransferId?: string | null;

  @EnumColumn(() => IncomingTransferStatus, { description: 'Shown in the enriched form.' })
  @Extensions({ rest: false })
  incomingStockTransferStatus?: IncomingTransferStatus | null;

  @EnumColumn(() => TransferStatus, { nullable: false, description: STOCK_TRANSFER_DOCS.status })
  status: TransferStatus = TransferStatus.DRAFT;

  @EnumColumn(() => TransferPriority, { description: STOCK_TRANSFER_DOCS.priority })
  priority?: TransferPriority | null = TransferPriority.LOW;

  @EnumColumn(() => DeliveryMethod, { description: STOCK_TRANSFER_DOCS.deliveryMethod })
  deliveryMethod?: DeliveryMethod | null = DeliveryMethod.REGULAR;

  @DateTimeColumn({ description: STOCK_TRANSFER_DOCS.deliveryDate })
  deliveryDate?: Date | null;

  @TextListColumn({ description: STOCK_TRANSFER_DOCS.picklistIds })
  picklistIds: string[] = [];

  @JsonColumn(() => [BatchAllocation], { nullable: false, description: STOCK_TRANSFER_DOCS.batchAllocations })
  batchAllocations: BatchAllocation[] = [];

  @JsonColumn(() => [TransferProduct], { nullable: false, description: STOCK_TRANSFER_DOCS.products })
  products: TransferProduct[] = [];

  @JsonColumn(() => [ReservedProduct], { nullable: false, description: STOCK_TRANSFER_DOCS.reservedProducts })
  reservedProducts: ReservedProduct[] = [];

  @BooleanColumn({
    nullable: false,
    description: 'Cancelled as a whole, or every ordered quantity cancelled (computed).',
  })
  isFullyCancelled: boolean = false;

  @JsonColumn(() => CancelledProducts, {
    nullable: false,
    description: STOCK_TRANSFER_DOCS.cancelledProducts,
  })
  cancelledProducts: CancelledProducts = { isNotEmpty: false, products: [] };

  @JsonColumn(() => [ProductQuantity], {
    nullable: false,
    description: 'Quantities received at the destination.',
  })
  @Extensions({ rest: false })
  deliveredProducts: ProductQuantity[] = [];

  @JsonColumn(() => [ProductQuantity], {
    nullable: false,
    description: 'Quantities sent back after delivery.',
  })
  @Extensions({ rest: false })
  returnedProducts: ProductQuantity[] = [];

  @JsonColumn(() => TransferWriteOff, {
    description: 'Set when the stock still in transit was written off, which closed the transfer.',
  })
  @Extensions({ rest: false })
  writtenOff?: TransferWriteOff | null;
}
