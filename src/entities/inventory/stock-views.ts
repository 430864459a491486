import { Extensions, Field, Float, ID, ObjectType } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
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

  @Field(() => String, {
    description: 'Number of the batch; with the location it names the batch.',
    nullable: true,
  })
  batchNumber?: string | null;
  @Field(() => DateTimeISOResolver, {
    description: 'When the batch expires; stock is taken first-expiring-first.',
    nullable: true,
  })
  expirationDate?: Date | null;
  @Field(() => DateTimeISOResolver, {
    description: 'When stock was last added to the batch.',
    nullable: true,
  })
  lastStockDate?: Date | null;
  @Field(() => String, { description: 'Id of the purchase order the batch came in on.', nullable: true })
  originalPurchaseOrderId?: string | null;
  @Field(() => DateTimeISOResolver, { description: 'When the batch was made.', nullable: true })
  productionDate?: Date | null;
  @Field(() => Float, { description: 'Quantity in the batch.' }) quantity!: number;
  @Field(() => StockSource, { description: 'How the batch came into stock.', nullable: true })
  stockSource?: StockSource | null;
  @Field(() => [ProductQuantity], { description: 'The batch quantity split over units of measurement.' })
  uomSplit!: ProductQuantity[];

  @Field(() => Float, { description: 'The price the batch came in at (GraphQL only).' })
  @Extensions({ rest: false })
  unitPrice!: number;
}

@ObjectType('StockLocation', { description: 'The batches of an inventory at one location of its site.' })
export class StockLocation {
  @Field(() => String, { nullable: true, description: 'The location; null for unlocated batches.' })
  id!: string | null;

  @Field(() => Float, { description: "Sum of the location's batches." }) totalQuantity!: number;
  @Field(() => DateTimeISOResolver, {
    description: 'When stock was last added at the location.',
    nullable: true,
  })
  lastStockDate!: Date | null;
  @Field(() => DateTimeISOResolver, {
    description: "Earliest expiration date of the location's batches.",
    nullable: true,
  })
  earliestExpirationDate!: Date | null;
  @Field(() => [LocationBatch], { description: 'The batches at the location.' }) batches!: LocationBatch[];
}

@ObjectType('BatchSearchRow', { description: 'A batch of a stock site with its product.' })
export class BatchSearchRow {
  @Field(() => String, { description: 'Number of the batch.', nullable: true }) batchNumber!: string | null;
  @Field(() => String, { description: 'Brand of the product.', nullable: true }) brand!: string | null;
  @Field(() => String, { description: 'Category of the product.', nullable: true }) category!: string | null;
  @Field(() => String, { description: 'Where in the site the batch lies.', nullable: true }) locationId!:
    string | null;
  @Field(() => String, { description: 'Id of the product.' }) productId!: string;
  @Field(() => String, { description: 'Name of the product.', nullable: true }) productName!: string | null;
  @Field(() => DateTimeISOResolver, { description: 'When the batch expires.', nullable: true })
  expirationDate!: Date | null;
  @Field(() => DateTimeISOResolver, {
    description: 'When stock was last added to the batch.',
    nullable: true,
  })
  lastStockDate!: Date | null;
  @Field(() => DateTimeISOResolver, { description: 'When the batch was made.', nullable: true })
  productionDate!: Date | null;
  @Field(() => Float, { description: 'Quantity in the batch.' }) quantity!: number;
  @Field(() => Float, { description: 'Price of one unit of the batch.' }) unitPrice!: number;
  @Field(() => [FileAsset], { description: 'Pictures of the product.' }) imageAssets!: FileAsset[];
}

@ObjectType('DestinationProductInfo', { description: "A product's stock at the destination site." })
export class DestinationProductInfo {
  @Field(() => Float, { description: 'Available at the destination: total − reserved.' })
  amountAvailable!: number;
  @Field(() => Float, { description: 'Reserved at the destination.' }) amountReserved!: number;
  @Field(() => Float, { description: "The destination's maximum for the product.", nullable: true })
  maximum!: number | null;
  @Field(() => Float, { description: "The destination's minimum for the product.", nullable: true })
  minimum!: number | null;
  @Field(() => Float, { description: 'Total at the destination.' }) totalAmount!: number;
  @Field(() => String, { description: 'Id of the destination site.', nullable: true }) stockSiteId!:
    string | null;
  @Field(() => String, { description: 'Name of the destination site.', nullable: true }) stockSiteName!:
    string | null;
}

@ObjectType('ProductStockRow', { description: 'A product with its stock at a site.' })
export class ProductStockRow {
  @Field(() => Float, { description: 'Available at the site: total − reserved.' }) amountAvailable!: number;
  @Field(() => Float, { description: 'Reserved at the site.' }) amountReserved!: number;
  @Field(() => Float, { description: "The site's maximum for the product.", nullable: true }) maximum!:
    number | null;
  @Field(() => Float, { description: "The site's minimum for the product.", nullable: true }) minimum!:
    number | null;
  @Field(() => Float, { description: 'Sales price of the product.', nullable: true }) salesPrice!:
    number | null;
  @Field(() => Float, { description: 'Total at the site: the sum of the batches.' }) totalAmount!: number;
  @Field(() => Float, { description: 'Quantity-weighted average price of the batches.', nullable: true })
  unitPrice!: number | null;
  @Field(() => UnitOfMeasurement, { description: "The product's base unit.", nullable: true })
  baseUnit!: UnitOfMeasurement | null;
  @Field(() => [UnitOfMeasurement], { description: 'The units the product is counted in.' })
  unitsOfMeasurement!: UnitOfMeasurement[];
  @Field(() => String, { description: 'Currency of the prices.', nullable: true }) currency!: string | null;
  @Field(() => String, { description: "Id of the product's picture.", nullable: true }) imageBlobId!:
    string | null;
  @Field(() => String, { description: 'Id of the product.' }) productId!: string;
  @Field(() => String, { description: 'Name of the product.', nullable: true }) productName!: string | null;
  @Field(() => String, { description: 'Id of the stock site.', nullable: true }) stockSiteId!: string | null;
  @Field(() => String, { description: 'Name of the stock site.', nullable: true }) stockSiteName!:
    string | null;
  @Field(() => String, { description: 'Id of the subsidiary of the inventory.', nullable: true })
  subsidiaryId!: string | null;
  @Field(() => ProductType, { description: 'What kind of product it is.', nullable: true })
  productType!: ProductType | null;
  @Field(() => DestinationProductInfo, {
    description: "The product's stock at the destination site, when one was asked for.",
    nullable: true,
  })
  destinationProductInfo!: DestinationProductInfo | null;
}
