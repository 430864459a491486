import { Field, Float, ObjectType } from 'type-graphql';
import { DateTimeISOResolver } from '../../graphql/date-time';
import { Audited } from '../tenant-scoped';
import { FileAsset, UnitOfMeasurement } from '../shared';
import {
  BatchAllocation,
  DeliveryMethod,
  IncomingTransferStatus,
  TransferPriority,
  TransferStatus,
} from './stock-transfer';

/**
 * The enriched form of a stock transfer (enriched search, draft creation). Its values at run time
 * are StockTransfer records: the fields declared here read the record's properties of the same
 * name, and the fields that differ from the search form (destinationSiteId, cancelledProducts as a
 * list, enriched products, reservations with site names, productStatus) are field resolvers of
 * EnrichedStockTransferResolver. Never instantiated, never stored.
 */
@ObjectType('SiteReservation', { description: 'A quantity of a product reserved at a named site.' })
export class SiteReservation {
  @Field(() => String, { nullable: true }) productId!: string | null;
  @Field(() => Float) quantity!: number;
  @Field(() => String, { nullable: true }) siteId!: string | null;
  @Field(() => String, { nullable: true }) siteName!: string | null;
}

@ObjectType('TransferProductStatus', { description: 'The progress of one product of a transfer.' })
export class TransferProductStatus {
  @Field(() => Float, { description: 'Delivered plus cancelled: what needs no more handling.' })
  finishedQuantity!: number;

  @Field(() => Float, { description: 'Ordered, less cancelled, less what was picked or shipped.' })
  quantityCanBeCancelled!: number;

  @Field(() => Float) quantityCancelled!: number;
  @Field(() => Float) quantityDelivered!: number;
  @Field(() => Float) quantityOrdered!: number;

  @Field(() => Float, { description: 'Ordered, less cancelled, less delivered.' })
  quantityPending!: number;

  @Field(() => Float, { description: 'The sum of the batch allocations.' })
  quantityPicked!: number;

  @Field(() => Float, { description: 'Reserved and already picked.' })
  quantityReservedPicklist!: number;

  @Field(() => Float, { description: 'Reserved and not yet picked.' })
  quantityReservedUnassigned!: number;

  @Field(() => Float) quantityReturned!: number;

  @Field(() => Float, { description: 'Picked quantities once the transfer has shipped.' })
  quantityShipped!: number;

  @Field(() => Float, { description: 'The quantity-weighted price per unit of its lines.' })
  unitPrice!: number;

  @Field(() => String) productId!: string;
  @Field(() => Boolean) returnStarted!: boolean;
}

@ObjectType('EnrichedTransferProduct', { description: 'A product line with its product and progress.' })
export class EnrichedTransferProduct {
  @Field(() => Float, { nullable: true }) baseUnitConversion!: number | null;
  @Field(() => Float, { nullable: true }) baseUnitQuantity!: number | null;
  @Field(() => Float, { nullable: true }) pricePerBaseUnit!: number | null;
  @Field(() => Float, { nullable: true }) pricePerUnit!: number | null;
  @Field(() => Float, { nullable: true }) quantity!: number | null;
  @Field(() => Float, { nullable: true }) totalPrice!: number | null;
  @Field(() => String, { nullable: true }) productId!: string | null;
  @Field(() => String, { nullable: true }) unit!: string | null;

  @Field(() => Float, { description: 'Available at the source site.' })
  availableStock!: number;

  @Field(() => Float) pending!: number;
  @Field(() => Float, { nullable: true }) price!: number | null;
  @Field(() => Float) quantityCancelled!: number;
  @Field(() => Float) quantityDelivered!: number;
  @Field(() => Float) quantityPicked!: number;
  @Field(() => Float) quantityReturned!: number;
  @Field(() => Float) quantityShipped!: number;
  @Field(() => Float) totalReserved!: number;
  @Field(() => String, { nullable: true }) productName!: string | null;
  @Field(() => [BatchAllocation]) batchAllocations!: BatchAllocation[];
  @Field(() => [FileAsset]) imageAssets!: FileAsset[];
  @Field(() => [SiteReservation]) reservations!: SiteReservation[];
  @Field(() => Boolean) returnStarted!: boolean;
  @Field(() => [UnitOfMeasurement]) unitsOfMeasurement!: UnitOfMeasurement[];
}

@ObjectType({ description: 'A stock transfer with its products, reservations and progress (enriched form).' })
export class EnrichedStockTransfer extends Audited {
  @Field(() => String) transferNumber!: string;
  @Field(() => String, { nullable: true }) note!: string | null;
  @Field(() => String, { nullable: true }) stockSiteId!: string | null;
  @Field(() => String, { nullable: true }) subsidiaryId!: string | null;
  @Field(() => String, { nullable: true }) incomingStockTransferId!: string | null;

  @Field(() => IncomingTransferStatus, { nullable: true })
  incomingStockTransferStatus!: IncomingTransferStatus | null;

  @Field(() => TransferStatus) status!: TransferStatus;
  @Field(() => TransferPriority, { nullable: true }) priority!: TransferPriority | null;
  @Field(() => DeliveryMethod, { nullable: true }) deliveryMethod!: DeliveryMethod | null;
  @Field(() => DateTimeISOResolver, { nullable: true }) deliveryDate!: Date | null;
  @Field(() => [String]) picklistIds!: string[];
  @Field(() => [BatchAllocation]) batchAllocations!: BatchAllocation[];
}
