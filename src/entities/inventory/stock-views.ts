import { Extensions, Field, Float, ID, ObjectType } from 'type-graphql';
import { DateTimeISOResolver } from '../../graphql/date-time';
import { FileAsset, UnitOfMeasurement } from '../shared';
import { ProductType } from '../reference/product';
import { StockSource } from './stock-batch';
import { ProductQuantity } from './shapes';

/**
 * Read-only shapes assembled from stored rows: an inventory's locations (from its batches), batch
 * search rows and product stock rows (batches or inventories joined with their products).
 */

@ObjectType('LocationBatch', { description: 'A batch at a location, as an inventory shows it.' })
export class LocationBatch {
  @Field(() => ID, { description: 'The batch id (GraphQL only).' })
  @Extensions({ rest: false })
  id!: string;

  @Field(() => String, { nullable: true }) batchNumber?: string | null;
  @Field(() => DateTimeISOResolver, { nullable: true }) expirationDate?: Date | null;
  @Field(() => DateTimeISOResolver, { nullable: true }) lastStockDate?: Date | null;
  @Field(() => String, { nullable: true }) originalPurchaseOrderId?: string | null;
  @Field(() => DateTimeISOResolver, { nullable: true }) productionDate?: Date | null;
  @Field(() => Float) quantity!: number;
  @Field(() => StockSource, { nullable: true }) stockSource?: StockSource | null;
  @Field(() => [ProductQuantity]) uomSplit!: ProductQuantity[];

  @Field(() => Float, { description: 'The price the batch came in at (GraphQL only).' })
  @Extensions({ rest: false })
  unitPrice!: number;
}

@ObjectType('StockLocation', { description: 'The batches of an inventory at one location of its site.' })
export class StockLocation {
  @Field(() => String, { nullable: true, description: 'The location; null for unlocated batches.' })
  id!: string | null;

  @Field(() => Float) totalQuantity!: number;
  @Field(() => DateTimeISOResolver, { nullable: true }) lastStockDate!: Date | null;
  @Field(() => DateTimeISOResolver, { nullable: true }) earliestExpirationDate!: Date | null;
  @Field(() => [LocationBatch]) batches!: LocationBatch[];
}

@ObjectType('BatchSearchRow', { description: 'A batch of a stock site with its product.' })
export class BatchSearchRow {
  @Field(() => String, { nullable: true }) batchNumber!: string | null;
  @Field(() => String, { nullable: true }) brand!: string | null;
  @Field(() => String, { nullable: true }) category!: string | null;
  @Field(() => String, { nullable: true }) locationId!: string | null;
  @Field(() => String) productId!: string;
  @Field(() => String, { nullable: true }) productName!: string | null;
  @Field(() => DateTimeISOResolver, { nullable: true }) expirationDate!: Date | null;
  @Field(() => DateTimeISOResolver, { nullable: true }) lastStockDate!: Date | null;
  @Field(() => DateTimeISOResolver, { nullable: true }) productionDate!: Date | null;
  @Field(() => Float) quantity!: number;
  @Field(() => Float) unitPrice!: number;
  @Field(() => [FileAsset]) imageAssets!: FileAsset[];
}

@ObjectType('DestinationProductInfo', { description: "A product's stock at the destination site." })
export class DestinationProductInfo {
  @Field(() => Float) amountAvailable!: number;
  @Field(() => Float) amountReserved!: number;
  @Field(() => Float, { nullable: true }) maximum!: number | null;
  @Field(() => Float, { nullable: true }) minimum!: number | null;
  @Field(() => Float) totalAmount!: number;
  @Field(() => String, { nullable: true }) stockSiteId!: string | null;
  @Field(() => String, { nullable: true }) stockSiteName!: string | null;
}

@ObjectType('ProductStockRow', { description: 'A product with its stock at a site.' })
export class ProductStockRow {
  @Field(() => Float) amountAvailable!: number;
  @Field(() => Float) amountReserved!: number;
  @Field(() => Float, { nullable: true }) maximum!: number | null;
  @Field(() => Float, { nullable: true }) minimum!: number | null;
  @Field(() => Float, { nullable: true }) salesPrice!: number | null;
  @Field(() => Float) totalAmount!: number;
  @Field(() => Float, { nullable: true }) unitPrice!: number | null;
  @Field(() => UnitOfMeasurement, { nullable: true }) baseUnit!: UnitOfMeasurement | null;
  @Field(() => [UnitOfMeasurement]) unitsOfMeasurement!: UnitOfMeasurement[];
  @Field(() => String, { nullable: true }) currency!: string | null;
  @Field(() => String, { nullable: true }) imageBlobId!: string | null;
  @Field(() => String) productId!: string;
  @Field(() => String, { nullable: true }) productName!: string | null;
  @Field(() => String, { nullable: true }) stockSiteId!: string | null;
  @Field(() => String, { nullable: true }) stockSiteName!: string | null;
  @Field(() => String, { nullable: true }) subsidiaryId!: string | null;
  @Field(() => ProductType, { nullable: true }) productType!: ProductType | null;
  @Field(() => DestinationProductInfo, { nullable: true })
  destinationProductInfo!: DestinationProductInfo | null;
}
