import { DecimalType, Entity, Enum, Index, Property, Unique } from '@mikro-orm/core';
import { Field, Float, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from '../../graphql/date-time';
import { Min } from 'class-validator';
import { Audited } from '../tenant-scoped';

export enum StockStatus {
  IN_STOCK = 'IN_STOCK',
  LOW_STOCK = 'LOW_STOCK',
  OUT_OF_STOCK = 'OUT_OF_STOCK',
}
registerEnumType(StockStatus, {
  name: 'StockStatus',
  description:
    'OUT_OF_STOCK when nothing is available, LOW_STOCK when the available quantity is at or below the minimum, IN_STOCK otherwise.',
});

export enum ReservationType {
  ORDER = 'ORDER',
  TRANSFER = 'TRANSFER',
  PRODUCTION = 'PRODUCTION',
  OTHER = 'OTHER',
}
registerEnumType(ReservationType, { name: 'ReservationType', description: 'What stock is reserved for.' });

/** Stock on its way to the site; stamped by the service. */
@ObjectType('InTransitStock', { description: 'Stock on its way to the site.' })
export class InTransitStock {
  @Field(() => Float, { nullable: true }) quantity?: number | null;
  @Field(() => String, { nullable: true }) transferId?: string | null;
  @Field(() => DateTimeISOResolver, { nullable: true }) created?: string | null;
  @Field(() => String, { nullable: true }) createdBy?: string | null;
  @Field(() => DateTimeISOResolver, { nullable: true }) updated?: string | null;
  @Field(() => String, { nullable: true }) updatedBy?: string | null;
}

@InputType('InTransitStockInput', { description: 'Stock on its way to the site.' })
export class InTransitStockInput {
  @Field(() => Float) @Min(0) quantity!: number;
  @Field(() => String, { nullable: true }) transferId?: string | null;
}

/** Stock promised to an order, a transfer or production; stamped by the service. */
@ObjectType('StockReservation', { description: 'Stock promised to an order, transfer or production.' })
export class StockReservation {
  @Field(() => Float, { nullable: true }) quantity?: number | null;
  @Field(() => String, { nullable: true }) reservationSourceId?: string | null;
  @Field(() => ReservationType, { nullable: true }) reservationType?: ReservationType | null;
  @Field(() => DateTimeISOResolver, { nullable: true }) created?: string | null;
  @Field(() => String, { nullable: true }) createdBy?: string | null;
  @Field(() => DateTimeISOResolver, { nullable: true }) updated?: string | null;
  @Field(() => String, { nullable: true }) updatedBy?: string | null;
}

@InputType('StockReservationInput', { description: 'Stock promised to an order, transfer or production.' })
export class StockReservationInput {
  @Field(() => Float) @Min(0) quantity!: number;
  @Field(() => String, { nullable: true }) reservationSourceId?: string | null;
  @Field(() => ReservationType, { nullable: true }) reservationType?: ReservationType | null;
}

const quantity = () => ({ type: new DecimalType('number'), columnType: 'numeric(14,4)' });

/**
 * The stock of one product at one stock site: one row per (site, product). Quantities are kept
 * equal to what the batches (StockBatch) and the reservation and in-transit lists say; only the
 * inventory services change them, under a row lock, so concurrent changes never lose one.
 */
@Entity({ tableName: 'stock_inventory' })
@Unique({
  name: 'stock_inventory_tenant_site_product_uq',
  properties: ['tenantId', 'siteId', 'productId'],
})
@Index({ name: 'stock_inventory_tenant_product_id_idx', properties: ['tenantId', 'productId'] })
@Index({ name: 'stock_inventory_tenant_subsidiary_id_idx', properties: ['tenantId', 'subsidiaryId'] })
@Index({ name: 'stock_inventory_tenant_status_idx', properties: ['tenantId', 'status'] })
@Index({
  name: 'stock_inventory_tenant_available_quantity_idx',
  properties: ['tenantId', 'availableQuantity'],
})
@Index({ name: 'stock_inventory_tenant_total_quantity_idx', properties: ['tenantId', 'totalQuantity'] })
@ObjectType({ description: 'The stock of one product at one stock site.' })
export class StockInventory extends Audited {
  @Property({ type: 'uuid' })
  @Field(() => ID)
  productId!: string;

  @Property({ type: 'uuid' })
  @Field(() => ID, { description: 'The stock site.' })
  siteId!: string;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true })
  subsidiaryId?: string | null;

  @Enum({ items: () => StockStatus })
  @Field(() => StockStatus)
  status: StockStatus = StockStatus.OUT_OF_STOCK;

  @Property(quantity())
  @Field(() => Float, { description: 'Everything at the site: the sum of the batches.' })
  totalQuantity: number = 0;

  @Property(quantity())
  @Field(() => Float, { description: 'The sum of the reservations.' })
  reservedQuantity: number = 0;

  @Property(quantity())
  @Field(() => Float, { description: 'The sum of the stock in transit to the site.' })
  inTransitQuantity: number = 0;

  @Property(quantity())
  @Field(() => Float, { description: 'totalQuantity - reservedQuantity.' })
  availableQuantity: number = 0;

  @Property({ ...quantity(), nullable: true })
  @Field(() => Float, { nullable: true })
  minimum?: number | null;

  @Property({ ...quantity(), nullable: true })
  @Field(() => Float, { nullable: true })
  maximum?: number | null;

  @Property(quantity())
  @Field(() => Float, { description: 'The quantity-weighted average price of the batches.' })
  unitPrice: number = 0;

  @Property({ type: 'json' })
  @Field(() => [InTransitStock])
  inTransitStock: InTransitStock[] = [];

  @Property({ type: 'json' })
  @Field(() => [StockReservation])
  reservations: StockReservation[] = [];
}
