import { Extensions, Field, Float, ObjectType } from 'type-graphql';
import { DateTimeISOResolver } from '../../../schema/date-time';
import { Audited } from '../../../entities/tenant-scoped';
import { FileAsset, UnitOfMeasurement } from '../../../entities/shared';
import {
  BatchAllocation,
  DeliveryMethod,
  IncomingTransferStatus,
  TransferPriority,
  TransferStatus,
  TransferWriteOff,
} from '../entities/stock-transfer';

/**
 * The enriched form of a stock transfer (enriched search, draft creation). Its values at run time
 * are StockTransfer records: the fields declared here read the record's properties of the same
 * name, and the fields that differ from the search form (destinationSiteId, cancelledProducts as a
 * list, enriched products, reservations with site names, productStatus) are field resolvers of
 * EnrichedStockTransferResolver. Never instantiated, never stored.
 */
@ObjectType('SiteReservation', { description: 'A quantity of a product reserved at a named site.' })
export class SiteReservation {
  @Field(() => String, { nullable: true, description: 'Id of the product reserved.' }) productId!:
    string | null;
  @Field(() => Float, { description: 'Quantity reserved.' }) quantity!: number;
  @Field(() => String, { nullable: true, description: 'Id of the stock site.' }) siteId!: string | null;
  @Field(() => String, { nullable: true, description: 'Name of the stock site.' }) siteName!: string | null;
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
  @Field(() => Float, { nullable: true, description: "How many base units one of the line's unit holds." })
  baseUnitConversion!: number | null;
  @Field(() => Float, { nullable: true, description: 'The quantity in base units.' }) baseUnitQuantity!:
    number | null;
  @Field(() => Float, { nullable: true, description: 'Price of one base unit.' }) pricePerBaseUnit!:
    number | null;
  @Field(() => Float, { nullable: true, description: "Price of one of the line's unit." }) pricePerUnit!:
    number | null;
  @Field(() => Float, { nullable: true, description: "Quantity ordered, in the line's unit." }) quantity!:
    number | null;
  @Field(() => Float, { nullable: true, description: 'Quantity × price per unit.' }) totalPrice!:
    number | null;
  @Field(() => String, { nullable: true, description: 'Id of the product.' }) productId!: string | null;
  @Field(() => String, { nullable: true, description: 'The unit the quantity is in.' }) unit!: string | null;

  @Field(() => Float, { description: 'Available at the source site.' })
  availableStock!: number;

  @Field(() => Float, { description: 'Ordered, less cancelled, less delivered.' }) pending!: number;
  @Field(() => Float, { nullable: true, description: "The product's price." }) price!: number | null;
  @Field(() => Float, { description: 'Quantity cancelled.' }) quantityCancelled!: number;
  @Field(() => Float, { description: 'Quantity delivered.' }) quantityDelivered!: number;
  @Field(() => Float, { description: 'Quantity picked: the sum of the batch allocations.' })
  quantityPicked!: number;
  @Field(() => Float, { description: 'Quantity returned.' }) quantityReturned!: number;
  @Field(() => Float, { description: 'Quantity shipped: the picked quantity once the transfer has shipped.' })
  quantityShipped!: number;
  @Field(() => Float, { description: 'Quantity reserved for the transfer, over every site.' })
  totalReserved!: number;
  @Field(() => String, { nullable: true, description: 'Name of the product.' }) productName!: string | null;
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
  @Field(() => String, { nullable: true, description: 'Note on the transfer.' }) note!: string | null;
  @Field(() => String, { nullable: true, description: 'Id of the stock site the goods leave from.' })
  stockSiteId!: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'Id of the subsidiary the transfer belongs to; limits who sees it.',
  })
  subsidiaryId!: string | null;
  @Field(() => String, { nullable: true, description: 'Id of the incoming transfer at the destination.' })
  incomingStockTransferId!: string | null;

  @Field(() => IncomingTransferStatus, {
    nullable: true,
    description: 'State of the incoming transfer at the destination.',
  })
  incomingStockTransferStatus!: IncomingTransferStatus | null;

  @Field(() => TransferStatus, { description: 'Where the transfer stands.' }) status!: TransferStatus;
  @Field(() => TransferPriority, { nullable: true, description: 'How urgent the transfer is.' })
  priority!: TransferPriority | null;
  @Field(() => DeliveryMethod, { nullable: true, description: 'How the goods travel.' })
  deliveryMethod!: DeliveryMethod | null;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When the goods should arrive.' })
  deliveryDate!: Date | null;
  @Field(() => [String], { description: 'Ids of the pick lists made for the transfer.' })
  picklistIds!: string[];
  @Field(() => [BatchAllocation], { description: 'The batches picked for the transfer.' })
  batchAllocations!: BatchAllocation[];

  @Field(() => TransferWriteOff, {
    nullable: true,
    description: 'Set when the stock still in transit was written off, which closed the transfer.',
  })
  @Extensions({ rest: false })
  writtenOff!: TransferWriteOff | null;
}
