import { Field, Float, ObjectType } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
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
  @Field(() => String, { description: 'Id of the product reserved.', nullable: true }) productId!:
    string | null;
  @Field(() => Float, { description: 'Quantity reserved.' }) quantity!: number;
  @Field(() => String, { description: 'Id of the stock site.', nullable: true }) siteId!: string | null;
  @Field(() => String, { description: 'Name of the stock site.', nullable: true }) siteName!: string | null;
}

@ObjectType('TransferProductStatus', { description: 'The progress of one product of a transfer.' })
export class TransferProductStatus {
  @Field(() => Float, { description: 'Delivered plus cancelled: what needs no more handling.' })
  finishedQuantity!: number;

  @Field(() => Float, { description: 'Ordered, less cancelled, less what was picked or shipped.' })
  quantityCanBeCancelled!: number;

  @Field(() => Float, { description: 'Quantity cancelled.' }) quantityCancelled!: number;
  @Field(() => Float, { description: 'Quantity delivered.' }) quantityDelivered!: number;
  @Field(() => Float, { description: 'Quantity ordered.' }) quantityOrdered!: number;

  @Field(() => Float, { description: 'Ordered, less cancelled, less delivered.' })
  quantityPending!: number;

  @Field(() => Float, { description: 'The sum of the batch allocations.' })
  quantityPicked!: number;

  @Field(() => Float, { description: 'Reserved and already picked.' })
  quantityReservedPicklist!: number;

  @Field(() => Float, { description: 'Reserved and not yet picked.' })
  quantityReservedUnassigned!: number;

  @Field(() => Float, { description: 'Quantity returned.' }) quantityReturned!: number;

  @Field(() => Float, { description: 'Picked quantities once the transfer has shipped.' })
  quantityShipped!: number;

  @Field(() => Float, { description: 'The quantity-weighted price per unit of its lines.' })
  unitPrice!: number;

  @Field(() => String, { description: 'Id of the product.' }) productId!: string;
  @Field(() => Boolean, { description: 'True once a return of the product has started.' })
  returnStarted!: boolean;
}

@ObjectType('EnrichedTransferProduct', { description: 'A product line with its product and progress.' })
export class EnrichedTransferProduct {
  @Field(() => Float, { description: "How many base units one of the line's unit holds.", nullable: true })
  baseUnitConversion!: number | null;
  @Field(() => Float, { description: 'The quantity in base units.', nullable: true }) baseUnitQuantity!:
    number | null;
  @Field(() => Float, { description: 'Price of one base unit.', nullable: true }) pricePerBaseUnit!:
    number | null;
  @Field(() => Float, { description: "Price of one of the line's unit.", nullable: true }) pricePerUnit!:
    number | null;
  @Field(() => Float, { description: "Quantity ordered, in the line's unit.", nullable: true }) quantity!:
    number | null;
  @Field(() => Float, { description: 'Quantity × price per unit.', nullable: true }) totalPrice!:
    number | null;
  @Field(() => String, { description: 'Id of the product.', nullable: true }) productId!: string | null;
  @Field(() => String, { description: 'The unit the quantity is in.', nullable: true }) unit!: string | null;

  @Field(() => Float, { description: 'Available at the source site.' })
  availableStock!: number;

  @Field(() => Float, { description: 'Ordered, less cancelled, less delivered.' }) pending!: number;
  @Field(() => Float, { description: "The product's price.", nullable: true }) price!: number | null;
  @Field(() => Float, { description: 'Quantity cancelled.' }) quantityCancelled!: number;
  @Field(() => Float, { description: 'Quantity delivered.' }) quantityDelivered!: number;
  @Field(() => Float, { description: 'Quantity picked: the sum of the batch allocations.' })
  quantityPicked!: number;
  @Field(() => Float, { description: 'Quantity returned.' }) quantityReturned!: number;
  @Field(() => Float, { description: 'Quantity shipped: the picked quantity once the transfer has shipped.' })
  quantityShipped!: number;
  @Field(() => Float, { description: 'Quantity reserved for the transfer, over every site.' })
  totalReserved!: number;
  @Field(() => String, { description: 'Name of the product.', nullable: true }) productName!: string | null;
  @Field(() => [BatchAllocation], { description: 'The batches picked for the line.' })
  batchAllocations!: BatchAllocation[];
  @Field(() => [FileAsset], { description: 'Pictures of the product.' }) imageAssets!: FileAsset[];
  @Field(() => [SiteReservation], { description: 'Where the product is reserved, per site.' })
  reservations!: SiteReservation[];
  @Field(() => Boolean, { description: 'True once a return of the product has started.' })
  returnStarted!: boolean;
  @Field(() => [UnitOfMeasurement], { description: 'The units the product is counted in.' })
  unitsOfMeasurement!: UnitOfMeasurement[];
}

@ObjectType({ description: 'A stock transfer with its products, reservations and progress (enriched form).' })
export class EnrichedStockTransfer extends Audited {
  @Field(() => String, { description: 'Number of the transfer, `ST-000001`, gapless per tenant.' })
  transferNumber!: string;
  @Field(() => String, { description: 'Note on the transfer.', nullable: true }) note!: string | null;
  @Field(() => String, { description: 'Id of the stock site the goods leave from.', nullable: true })
  stockSiteId!: string | null;
  @Field(() => String, {
    description: 'Id of the subsidiary the transfer belongs to; limits who sees it.',
    nullable: true,
  })
  subsidiaryId!: string | null;
  @Field(() => String, { description: 'Id of the incoming transfer at the destination.', nullable: true })
  incomingStockTransferId!: string | null;

  @Field(() => IncomingTransferStatus, {
    description: 'State of the incoming transfer at the destination.',
    nullable: true,
  })
  incomingStockTransferStatus!: IncomingTransferStatus | null;

  @Field(() => TransferStatus, { description: 'Where the transfer stands.' }) status!: TransferStatus;
  @Field(() => TransferPriority, { description: 'How urgent the transfer is.', nullable: true })
  priority!: TransferPriority | null;
  @Field(() => DeliveryMethod, { description: 'How the goods travel.', nullable: true })
  deliveryMethod!: DeliveryMethod | null;
  @Field(() => DateTimeISOResolver, { description: 'When the goods should arrive.', nullable: true })
  deliveryDate!: Date | null;
  @Field(() => [String], { description: 'Ids of the pick lists made for the transfer.' })
  picklistIds!: string[];
  @Field(() => [BatchAllocation], { description: 'The batches picked for the transfer.' })
  batchAllocations!: BatchAllocation[];
}
