import { Field, InputType } from 'type-graphql';
import { IsOptional, IsUUID, Length, ValidateNested } from 'class-validator';
import { DateTimeISOResolver } from '../../../schema/date-time';
import { ProductQuantity } from '../entities/shapes';
import {
  CancelledProductsInput,
  DeliveryMethod,
  TransferPriority,
  TransferProduct,
  TransferStatus,
  STOCK_TRANSFER_DOCS,
} from '../entities/stock-transfer';
import { WRITE_OFF_REASON_CHARS } from '../transfer-write-off';

/**
 * Create and update take one shape: absent fields stay as they are. Lists given replace the stored
 * ones. What the stock moves keep (reservations, batch allocations, the receiving side) is the
 * service's and not taken from clients.
 */
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
  @Field(() => TransferStatus, {
    nullable: true,
    description:
      'Where the transfer stands; APPROVED or PICKING reserves the stock, SHIPPED takes it out of the source, DELIVERED brings what is in transit in.',
  })
  status?: TransferStatus;
  @Field(() => TransferPriority, { nullable: true, description: STOCK_TRANSFER_DOCS.priority })
  priority?: TransferPriority | null;
  @Field(() => DeliveryMethod, { nullable: true, description: STOCK_TRANSFER_DOCS.deliveryMethod })
  deliveryMethod?: DeliveryMethod | null;
  @Field(() => DateTimeISOResolver, { nullable: true, description: STOCK_TRANSFER_DOCS.deliveryDate })
  deliveryDate?: Date | null;
  @Field(() => [String], { nullable: true, description: STOCK_TRANSFER_DOCS.picklistIds })
  picklistIds?: string[];

  @Field(() => [TransferProduct], { nullable: true, description: STOCK_TRANSFER_DOCS.products })
  @IsOptional()
  @ValidateNested({ each: true })
  products?: TransferProduct[];

  @Field(() => CancelledProductsInput, { nullable: true, description: STOCK_TRANSFER_DOCS.cancelledProducts })
  @IsOptional()
  @ValidateNested()
  cancelledProducts?: CancelledProductsInput;

  @Field(() => [ProductQuantity], {
    nullable: true,
    description:
      'Everything delivered so far (replaces the list; never less than before, never more than shipped): what it adds arrives at the destination.',
  })
  @IsOptional()
  @ValidateNested({ each: true })
  deliveredProducts?: ProductQuantity[];

  @Field(() => [ProductQuantity], { nullable: true, description: 'The lines returned.' })
  @IsOptional()
  @ValidateNested({ each: true })
  returnedProducts?: ProductQuantity[];
}

@InputType('WriteOffStockTransferInput', {
  description: 'Why the stock a transfer still has in transit is written off.',
})
export class WriteOffStockTransferInput {
  @Field(() => String, { description: `Why: lost, damaged... (1 to ${WRITE_OFF_REASON_CHARS} characters).` })
  @Length(1, WRITE_OFF_REASON_CHARS)
  reason!: string;
}
