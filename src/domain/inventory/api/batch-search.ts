import type { Knex, SqlEntityManager } from '@mikro-orm/knex';
import { callerOf, type Context } from '../../../context';
import { StockBatch } from '../entities/stock-batch';
import { StockInventory } from '../entities/stock-inventory';
import { Product } from '../../reference/entities/product';
import { badRequest } from '../../../errors';
import { checkPaging } from '../../../limits';
import { toPage, type Page } from '../../../schema/page';
import { Direction } from '../../../family/search-input';
import { likeEscape } from '../../../family/where';
import type { BatchSearchRow } from './stock-view-types';
import { siteOrFail } from './places';

/** Batch search (GET /inventory/batch-search). */

export enum BatchSortField {
  productName = 'productName',
  batchNumber = 'batchNumber',
  expirationDate = 'expirationDate',
  quantity = 'quantity',
  lastStockDate = 'lastStockDate',
  productionDate = 'productionDate',
  unitPrice = 'unitPrice',
  brand = 'brand',
  category = 'category',
}

export interface BatchSearch {
  stockSiteId: string;
  search?: string | null;
  category?: string | null;
  brand?: string | null;
  batchNumber?: string | null;
  locationId?: string | null;
  expiryFrom?: Date | null;
  expiryTo?: Date | null;
  stockDateFrom?: Date | null;
  stockDateTo?: Date | null;
  page?: number | null;
  size?: number | null;
  sortBy?: BatchSortField | null;
  direction?: Direction | null;
}

/** Table and column names from the ORM's metadata, so this SQL follows the entities. */
function columns(ctx: Context, entity: Function) {
  const meta = ctx.em.getMetadata().get(entity.name);
  return {
    table: meta.tableName,
    col: (prop: string) => meta.properties[prop as keyof typeof meta.properties].fieldNames[0],
  };
}

/** A timestamp as the driver returns it in plain SQL results ("2027-01-01 00:00:00+00") as a Date. */
function toDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  const text = String(value)
    .replace(' ', 'T')
    .replace(/([+-]\d\d)$/, '$1:00');
  return new Date(text);
}

/** The tables of the batch search, under these names in its SQL. */
const BATCH = 'batch';
const INVENTORY = 'inventory';
const PRODUCT = 'product';

/** Columns of the batch search, qualified by their table's name in it. */
interface BatchColumns {
  batch: (prop: string) => string;
  inventory: (prop: string) => string;
  product: (prop: string) => string;
}

/**
 * A page of the batches of a site joined with their products. A join across two tables is
 * beyond the ORM's filters, so this is plain SQL that names the caller's tenant itself (in every
 * table of the join) and the caller's subsidiaries through the batch's inventory.
 */
export async function searchBatches(ctx: Context, q: BatchSearch): Promise<Page<BatchSearchRow>> {
  const { page, size } = checkPaging(q.page, q.size);
  const site = await siteOrFail(ctx, q.stockSiteId);
  const { base, cols } = batchesOfSite(ctx, site.id);
  filterBatches(base, cols, q);
  const em = ctx.em as SqlEntityManager;
  // One after the other: both run on the request's transaction, which is one connection.
  const rows = await em.execute<Record<string, any>[]>(batchRowsQuery(base, cols, q, page, size));
  const counted = await em.execute<{ n: string | number }[]>(base.clone().count({ n: '*' }));
  return toPage(rows.map(batchRowOf), Number(counted[0]?.n ?? 0), page, size, true);
}

/** The batches of a site with their inventory and product, limited to what the caller may see. */
function batchesOfSite(ctx: Context, siteId: string): { base: Knex.QueryBuilder; cols: BatchColumns } {
  const caller = callerOf(ctx);
  const batch = columns(ctx, StockBatch);
  const inventory = columns(ctx, StockInventory);
  const product = columns(ctx, Product);
  const cols: BatchColumns = {
    batch: (prop) => `${BATCH}.${batch.col(prop)}`,
    inventory: (prop) => `${INVENTORY}.${inventory.col(prop)}`,
    product: (prop) => `${PRODUCT}.${product.col(prop)}`,
  };
  const knex = (ctx.em as SqlEntityManager).getKnex();
  const base = knex(`${batch.table} as ${BATCH}`)
    .join(`${inventory.table} as ${INVENTORY}`, (j) =>
      j
        .on(`${INVENTORY}.tenant_id`, `${BATCH}.tenant_id`)
        .andOn(cols.inventory('id'), cols.batch('inventoryId')),
    )
    .join(`${product.table} as ${PRODUCT}`, (j) =>
      j.on(`${PRODUCT}.tenant_id`, `${BATCH}.tenant_id`).andOn(cols.product('id'), cols.batch('productId')),
    )
    .where(`${BATCH}.tenant_id`, caller.tenantId)
    .andWhere(cols.batch('siteId'), siteId);
  if (!caller.hasFullAccess) {
    const allowed = [...caller.subsidiaryAccess];
    base.andWhere((w) => {
      w.whereNull(cols.inventory('subsidiaryId'));
      if (allowed.length) w.orWhereIn(cols.inventory('subsidiaryId'), allowed);
    });
  }
  return { base, cols };
}

/** The search terms (each in one of the text columns) and the per-field filters. */
function filterBatches(base: Knex.QueryBuilder, cols: BatchColumns, q: BatchSearch): void {
  const ilike = (column: string, value: string) => base.whereILike(column, likeEscape(value));
  const searched = [
    cols.product('name'),
    cols.product('brand'),
    cols.product('category'),
    cols.batch('batchNumber'),
    cols.batch('locationId'),
  ];
  for (const term of (q.search ?? '').split(/\s+/).filter((t) => t.length > 0)) {
    if (term.length > 200) throw badRequest('search: a term may be at most 200 characters long');
    const pattern = `%${likeEscape(term)}%`;
    base.andWhere((w) => {
      for (const column of searched) w.orWhereILike(column, pattern);
    });
  }
  if (q.category) ilike(cols.product('category'), q.category);
  if (q.brand) ilike(cols.product('brand'), q.brand);
  if (q.batchNumber) ilike(cols.batch('batchNumber'), q.batchNumber);
  if (q.locationId) base.andWhere(cols.batch('locationId'), q.locationId);
  if (q.expiryFrom) base.andWhere(cols.batch('expirationDate'), '>=', q.expiryFrom);
  if (q.expiryTo) base.andWhere(cols.batch('expirationDate'), '<=', q.expiryTo);
  if (q.stockDateFrom) base.andWhere(cols.batch('lastStockDate'), '>=', q.stockDateFrom);
  if (q.stockDateTo) base.andWhere(cols.batch('lastStockDate'), '<=', q.stockDateTo);
}

/** One page of the filtered batches, in the requested order, then by product and batch. */
function batchRowsQuery(
  base: Knex.QueryBuilder,
  cols: BatchColumns,
  q: BatchSearch,
  page: number,
  size: number,
): Knex.QueryBuilder {
  const { batch, product } = cols;
  const sortColumn: Record<BatchSortField, string> = {
    productName: product('name'),
    batchNumber: batch('batchNumber'),
    expirationDate: batch('expirationDate'),
    quantity: batch('quantity'),
    lastStockDate: batch('lastStockDate'),
    productionDate: batch('productionDate'),
    unitPrice: batch('unitPrice'),
    brand: product('brand'),
    category: product('category'),
  };
  const dir = q.direction === Direction.DESC ? 'desc' : 'asc';
  return base
    .clone()
    .select({
      batchNumber: batch('batchNumber'),
      locationId: batch('locationId'),
      productId: batch('productId'),
      expirationDate: batch('expirationDate'),
      lastStockDate: batch('lastStockDate'),
      productionDate: batch('productionDate'),
      quantity: batch('quantity'),
      unitPrice: batch('unitPrice'),
      productName: product('name'),
      brand: product('brand'),
      category: product('category'),
      imageAssets: product('imageAssets'),
    })
    .orderByRaw(`?? ${dir} nulls last`, [sortColumn[q.sortBy ?? BatchSortField.productName]])
    .orderBy([product('name'), batch('batchNumber'), batch('id')])
    .limit(size)
    .offset(page * size);
}

function batchRowOf(r: Record<string, any>): BatchSearchRow {
  return {
    batchNumber: r.batchNumber ?? null,
    locationId: r.locationId ?? null,
    productId: r.productId,
    productName: r.productName ?? null,
    brand: r.brand ?? null,
    category: r.category ?? null,
    expirationDate: toDate(r.expirationDate),
    lastStockDate: toDate(r.lastStockDate),
    productionDate: toDate(r.productionDate),
    quantity: Number(r.quantity),
    unitPrice: Number(r.unitPrice),
    imageAssets: (typeof r.imageAssets === 'string' ? JSON.parse(r.imageAssets) : r.imageAssets) ?? [],
  };
}
