import { Entity, Unique } from '@mikro-orm/core';
import { Field, Float, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { Min } from 'class-validator';
import { DateTimeISOResolver } from '../../../schema/date-time';
import { Audited } from '../../../entities/tenant-scoped';
import { DecimalColumn, EnumColumn, JsonColumn, TenantIndexes, UuidColumn } from '../../../entities/columns';

export enum StockStatus {
  IN_STOCK = 'IN_STOCK',
  LOW_STOCK = 'LOW_STOCK',
  OUT_OF_STOCK = 'OUT_OF_STOCK',
}
registerEnumType(StockStatus, {
  name: 'StockStatus',
  description:
    'OUT_OF_STOCK when nothing is available, LOW_STOCK when the available quantity is at or below the minimum, IN_STOCK otherwise.',
  valuesConfig: {
    IN_STOCK: { description: 'More than the minimum is available.' },
    LOW_STOCK: { description: 'Available, at or below the minimum.' },
    OUT_OF_STOCK: { description: 'Nothing is available.' },
  },
});

export enum ReservationType {
  ORDER = 'ORDER',
  TRANSFER = 'TRANSFER',
  PRODUCTION = 'PRODUCTION',
  OTHER = 'OTHER',
}
registerEnumType(ReservationType, {
  name: 'ReservationType',
  description: 'What stock is reserved for.',
  valuesConfig: {
    ORDER: { description: 'Reserved for a sales order.' },
    TRANSFER: { description: 'Reserved for a stock transfer.' },
    PRODUCTION: { description: 'Reserved for production.' },
    OTHER: { description: 'Reserved for anything else.' },
  },
});

/** What InTransitStock fields mean, shared with the inputs that set them. */
export const IN_TRANSIT_STOCK_DOCS = {
  quantity: 'Quantity on its way.',
  transferId: 'Id of the stock transfer bringing it.',
} as const;

/** Stock on its way to the site, kept by the transfers that ship it; stamped by the service. */
@ObjectType('InTransitStock', { description: 'Stock on its way to the site.' })
export class InTransitStock {
  @Field(() => Float, { nullable: true, description: IN_TRANSIT_STOCK_DOCS.quantity }) quantity?:
    number | null;
  @Field(() => String, { nullable: true, description: IN_TRANSIT_STOCK_DOCS.transferId }) transferId?:
    string | null;
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'When the entry was made; set by the service.',
  })
  created?: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'E-mail of the user who made the entry; set by the service.',
  })
  createdBy?: string | null;
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'When the entry last changed; set by the service.',
  })
  updated?: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'E-mail of the user who last changed the entry; set by the service.',
  })
  updatedBy?: string | null;
}

/** What StockReservation fields mean, shared with the inputs that set them. */
export const STOCK_RESERVATION_DOCS = {
  quantity: 'Quantity reserved; counts against the available quantity.',
  reservationSourceId: 'Id of the order, transfer or production run the stock is reserved for.',
  reservationType: 'What the stock is reserved for.',
} as const;

/**
 * The fields of a reservation a client gives, declared once for the stored shape and the input.
 * type-graphql passes on only the fields of a parent it registered, hence the two type names;
 * no field has these types, so the schema does not publish them.
 */
@ObjectType('StockReservationFields')
@InputType('StockReservationFieldsInput')
abstract class StockReservationFields {
  @Field(() => Float, {
    nullable: true,
    description: STOCK_RESERVATION_DOCS.quantity,
  })
  quantity?: number | null;
  @Field(() => String, {
    nullable: true,
    description: STOCK_RESERVATION_DOCS.reservationSourceId,
  })
  reservationSourceId?: string | null;
  @Field(() => ReservationType, { nullable: true, description: STOCK_RESERVATION_DOCS.reservationType })
  reservationType?: ReservationType | null;
}

/** Stock promised to an order, a transfer or production; stamped by the service. */
@ObjectType('StockReservation', { description: 'Stock promised to an order, transfer or production.' })
export class StockReservation extends StockReservationFields {
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'When the reservation was made; set by the service.',
  })
  created?: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'E-mail of the user who made the reservation; set by the service.',
  })
  createdBy?: string | null;
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'When the reservation last changed; set by the service.',
  })
  updated?: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'E-mail of the user who last changed the reservation; set by the service.',
  })
  updatedBy?: string | null;
}

@InputType('StockReservationInput', { description: 'Stock promised to an order, transfer or production.' })
export class StockReservationInput extends StockReservationFields {
  @Field(() => Float, { description: STOCK_RESERVATION_DOCS.quantity })
  @Min(0)
  override quantity!: number;
}

/** What StockInventory fields mean, shared with the inputs that set them. */
export const STOCK_INVENTORY_DOCS = {
  productId: 'Id of the product; one inventory per (site, product).',
  subsidiaryId: 'Id of the subsidiary the inventory belongs to; limits who sees it.',
  minimum: 'Quantity at or below which the stock is LOW_STOCK.',
  maximum: 'Quantity the site should hold at most.',
} as const;

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
@TenantIndexes('stock_inventory', 'productId', 'subsidiaryId', 'status')
@TenantIndexes('stock_inventory', 'availableQuantity')
@TenantIndexes('stock_inventory', 'totalQuantity')
@ObjectType({ description: 'The stock of one product at one stock site.' })
export class StockInventory extends Audited {
  @UuidColumn({ nullable: false, id: true, description: STOCK_INVENTORY_DOCS.productId })
  productId!: string;

  @UuidColumn({ nullable: false, id: true, description: 'The stock site.' })
  siteId!: string;

  @UuidColumn({ description: STOCK_INVENTORY_DOCS.subsidiaryId })
  subsidiaryId?: string | null;

  @EnumColumn(() => StockStatus, {
    nullable: false,
    description:
      'OUT_OF_STOCK when nothing is available, LOW_STOCK at or below `minimum`, else IN_STOCK; computed.',
  })
  status: StockStatus = StockStatus.OUT_OF_STOCK;

  @DecimalColumn(14, 4, { nullable: false, description: 'Everything at the site: the sum of the batches.' })
  totalQuantity: number = 0;

  @DecimalColumn(14, 4, { nullable: false, description: 'The sum of the reservations.' })
  reservedQuantity: number = 0;

  @DecimalColumn(14, 4, { nullable: false, description: 'The sum of the stock in transit to the site.' })
  inTransitQuantity: number = 0;

  @DecimalColumn(14, 4, { nullable: false, description: 'totalQuantity - reservedQuantity.' })
  availableQuantity: number = 0;

  @DecimalColumn(14, 4, { description: STOCK_INVENTORY_DOCS.minimum })
  minimum?: number | null;

  @DecimalColumn(14, 4, { description: STOCK_INVENTORY_DOCS.maximum })
  maximum?: number | null;

  @DecimalColumn(14, 4, {
    nullable: false,
    description: 'The quantity-weighted average price of the batches.',
  })
  unitPrice: number = 0;

  @JsonColumn(() => [InTransitStock], { nullable: false, description: 'Stock on its way to the site.' })
  inTransitStock: InTransitStock[] = [];

  @JsonColumn(() => [StockReservation], {
    nullable: false,
    description: 'Stock reserved at the site; `availableQuantity` = total − reserved.',
  })
  reservations: StockReservation[] = [];
}
