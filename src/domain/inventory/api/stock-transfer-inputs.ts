import { Field, InputType } from 'type-graphql';
import { IsOptional, IsUUID, Length, ValidateNested } from 'class-validator';
import { DateTimeISOResolver } from '../../../graphql/date-time';
import { ProductQuantity } from '../entities/shapes';
import {
  BatchAllocation,
  CancelledProductsInput,
  DeliveryMethod,
  IncomingTransferStatus,
  ReservedProduct,
  TransferPriority,
  TransferProduct,
  TransferStatus,
  STOCK_TRANSFER_DOCS,
} from '../entities/stock-transfer';

/** Create and update take one shape: absent fields stay as they are. Lists given replace the stored ones. */
@InputType('StockTransferInput', { description: 'A stock transfer, or changes to one.' })
export class StockTransferInput {
  @Field(() => String, { nullable: true, description: STOCK_TRANSFER_DOCS.note })
  @IsOptional()
  @Length(0, 2000)
  note?: string | null;
  @Field(() => String, { nullable: true, description: 'Id of the stock site the goods leave from.' })
  @IsOptional()
  @IsUUID()
  stockSiteId?: string | null;
  @Field(() => String, { nullable: true, description: STOCK_TRANSFER_DOCS.destinationStockSiteId })
  @IsOptional()
  @IsUUID()
  destinationStockSiteId?: string | null;
  @Field(() => String, {
    nullable: true,
    description: STOCK_TRANSFER_DOCS.subsidiaryId,
  })
  @IsOptional()
  @IsUUID()
  subsidiaryId?: string | null;
  @Field(() => String, { nullable: true, description: STOCK_TRANSFER_DOCS.incomingStockTransferId })
  @IsOptional()
  @IsUUID()
  incomingStockTransferId?: string | null;
  @Field(() => IncomingTransferStatus, {
    nullable: true,
    description: 'State of the incoming transfer at the destination.',
  })
  incomingStockTransferStatus?: IncomingTransferStatus | null;
  @Field(() => TransferStatus, { nullable: true, description: STOCK_TRANSFER_DOCS.status })
  status?: TransferStatus;
  @Field(() => TransferPriority, { nullable: true, description: STOCK_TRANSFER_DOCS.priority })
  priority?: TransferPriority | null;
  @Field(() => DeliveryMethod, { nullable: true, description: STOCK_TRANSFER_DOCS.deliveryMethod })
  deliveryMethod?: DeliveryMethod | null;
  @Field(() => DateTimeISOResolver, { nullable: true, description: STOCK_TRANSFER_DOCS.deliveryDate })
  deliveryDate?: Date | null;
  @Field(() => [String], { nullable: true, description: STOCK_TRANSFER_DOCS.picklistIds })
  picklistIds?: string[];

  @Field(() => [BatchAllocation], { nullable: true, description: STOCK_TRANSFER_DOCS.batchAllocations })
  @IsOptional()
  @ValidateNested({ each: true })
  batchAllocations?: BatchAllocation[];

  @Field(() => [TransferProduct], { nullable: true, description: STOCK_TRANSFER_DOCS.products })
  @IsOptional()
  @ValidateNested({ each: true })
  products?: TransferProduct[];

  @Field(() => [ReservedProduct], { nullable: true, description: STOCK_TRANSFER_DOCS.reservedProducts })
  @IsOptional()
  @ValidateNested({ each: true })
  reservedProducts?: ReservedProduct[];

  @Field(() => CancelledProductsInput, { nullable: true, description: STOCK_TRANSFER_DOCS.cancelledProducts })
  @IsOptional()
  @ValidateNested()
  cancelledProducts?: CancelledProductsInput;

  @Field(() => [ProductQuantity], { nullable: true, description: 'The lines delivered.' })
  @IsOptional()
  @ValidateNested({ each: true })
  deliveredProducts?: ProductQuantity[];

  @Field(() => [ProductQuantity], { nullable: true, description: 'The lines returned.' })
  @IsOptional()
  @ValidateNested({ each: true })
  returnedProducts?: ProductQuantity[];
}
