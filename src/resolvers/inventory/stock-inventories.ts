import { wrap } from '@mikro-orm/core';
import { Field, Float, ID, InputType } from 'type-graphql';
import { IsOptional, Min, ValidateNested } from 'class-validator';
import { callerOf, type Context } from '../../context';
import { StockBatch } from '../../entities/inventory/stock-batch';
import {
  InTransitStockInput,
  StockInventory,
  StockReservationInput,
  type InTransitStock,
  type StockReservation,
  STOCK_INVENTORY_DOCS,
} from '../../entities/inventory/stock-inventory';
import { badRequest } from '../../errors';
import { defineGroup } from '../../family/group';
import { productsOrFail, siteOrFail, subsidiaryAt } from './places';
import { recomputeDerived } from '../../domain/inventory/stock-ledger';

/**
 * The StockInventory group. Quantities are never written through these inputs: they follow
 * from batches, which only the stock operations (addStock, adjustStock, updateStockBatch, waste)
 * change. GraphQL's create makes an empty inventory (for setting a minimum before any stock
 * arrives); update sets thresholds, reservations and stock in transit.
 */
@InputType({ description: 'An empty inventory of a product at a site.' })
export class CreateStockInventoryInput {
  @Field(() => ID, { description: STOCK_INVENTORY_DOCS.productId })
  productId!: string;
  @Field(() => ID, { description: 'Id of the stock site; one inventory per (site, product).' })
  siteId!: string;
  @Field(() => String, {
    nullable: true,
    description: STOCK_INVENTORY_DOCS.subsidiaryId,
  })
  subsidiaryId?: string | null;
  @Field(() => Float, { nullable: true, description: STOCK_INVENTORY_DOCS.minimum })
  @IsOptional()
  @Min(0)
  minimum?: number | null;
  @Field(() => Float, { nullable: true, description: STOCK_INVENTORY_DOCS.maximum })
  @IsOptional()
  @Min(0)
  maximum?: number | null;
}

@InputType({ description: 'Changes to an inventory; quantities follow from them.' })
export class UpdateStockInventoryInput {
  @Field(() => Float, { nullable: true, description: STOCK_INVENTORY_DOCS.minimum })
  @IsOptional()
  @Min(0)
  minimum?: number | null;
  @Field(() => Float, { nullable: true, description: STOCK_INVENTORY_DOCS.maximum })
  @IsOptional()
  @Min(0)
  maximum?: number | null;

  @Field(() => [StockReservationInput], { nullable: true, description: 'Replaces the reservations.' })
  @IsOptional()
  @ValidateNested({ each: true })
  reservations?: StockReservationInput[];

  @Field(() => [InTransitStockInput], { nullable: true, description: 'Replaces the stock in transit.' })
  @IsOptional()
  @ValidateNested({ each: true })
  inTransitStock?: InTransitStockInput[];
}

type Stamped = {
  created?: string | null;
  createdBy?: string | null;
  updated?: string | null;
  updatedBy?: string | null;
  quantity?: number | null;
};

/**
 * Stamps list entries with who made and last changed them: an entry that matches an earlier one
 * (same key) keeps its creation stamp, and its update stamp unless its quantity changed.
 */
function stamp<T extends Stamped>(ctx: Context, next: T[], previous: T[], key: (e: T) => string): T[] {
  const now = new Date().toISOString();
  const by = callerOf(ctx).email;
  const earlier = new Map(previous.map((e) => [key(e), e]));
  return next.map((entry) => {
    const before = earlier.get(key(entry));
    const same = before && Number(before.quantity) === Number(entry.quantity);
    return {
      ...entry,
      quantity: Number(entry.quantity),
      created: before?.created ?? now,
      createdBy: before?.createdBy ?? by,
      updated: same ? before.updated : now,
      updatedBy: same ? before.updatedBy : by,
    };
  });
}

async function beforeSave(
  ctx: Context,
  inv: StockInventory,
  input: Partial<CreateStockInventoryInput & UpdateStockInventoryInput>,
  isNew: boolean,
): Promise<void> {
  if (isNew) {
    const site = await siteOrFail(ctx, inv.siteId, 'siteId');
    await productsOrFail(ctx, [inv.productId]);
    inv.subsidiaryId = subsidiaryAt(site, input.subsidiaryId);
  }
  if (inv.minimum != null && inv.maximum != null && Number(inv.minimum) > Number(inv.maximum)) {
    throw badRequest(`minimum (${inv.minimum}) must not exceed maximum (${inv.maximum})`);
  }
  const original = (wrap(inv, true).__originalEntityData ?? {}) as Record<string, unknown>;
  // The ORM keeps JSON columns of the loaded row either parsed or as their text.
  const before = <T>(name: string): T[] => {
    const value = original[name];
    const list = typeof value === 'string' ? JSON.parse(value) : value;
    return Array.isArray(list) ? (list as T[]) : [];
  };
  if (input.reservations) {
    inv.reservations = stamp<StockReservation>(
      ctx,
      input.reservations.map((r) => ({ ...r })),
      before<StockReservation>('reservations'),
      (r) => `${r.reservationType ?? ''}:${r.reservationSourceId ?? ''}`,
    );
  }
  if (input.inTransitStock) {
    inv.inTransitStock = stamp<InTransitStock>(
      ctx,
      input.inTransitStock.map((t) => ({ ...t })),
      before<InTransitStock>('inTransitStock'),
      (t) => t.transferId ?? '',
    );
  }
  recomputeDerived(inv);
}

export const stockInventories = defineGroup({
  entity: StockInventory,
  name: 'StockInventory',
  plural: 'StockInventories',
  resource: 'INVENTORY',
  createInput: CreateStockInventoryInput,
  updateInput: UpdateStockInventoryInput,
  // An inventory has no text of its own; its status is the one thing a term can match.
  searchable: ['status'],
  scope: 'subsidiaryId',
  beforeSave,
  // Batches are the inventory's own rows: they go with it.
  async beforeDelete(ctx, rows) {
    await ctx.em.nativeDelete(StockBatch, { inventoryId: { $in: rows.map((r) => r.id) } });
  },
});
