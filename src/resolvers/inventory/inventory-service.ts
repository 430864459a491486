import type { Knex, SqlEntityManager } from '@mikro-orm/knex';
import { callerOf, type Context } from '../../context';
import { StockBatch, type StockSource } from '../../entities/inventory/stock-batch';
import { StockInventory } from '../../entities/inventory/stock-inventory';
import type {
  BatchSearchRow,
  DestinationProductInfo,
  ProductStockRow,
  StockLocation,
} from '../../entities/inventory/stock-views';
import { round4 } from '../../entities/inventory/shapes';
import { Product } from '../../entities/reference/product';
import type { StockSite } from '../../entities/reference/stock-site';
import { badRequest, notFound } from '../../errors';
import { checkPaging } from '../../family/limits';
import { loaderManyBy } from '../../family/loaders';
import { toPage, type Page } from '../../family/page';
import { Direction, type SearchInput } from '../../family/search-input';
import { FamilyService, inTransaction } from '../../family/service';
import { likeEscape } from '../../family/where';
import { products } from '../reference/groups';
import { productsOrFail, siteOrFail, subsidiaryAt } from './places';
import { changeStock, fefo } from './stock-ledger';
import { stockInventories } from './stock-inventories';

export const inventoryService = new FamilyService(stockInventories);
const productService = new FamilyService(products);

const fmt = (n: number | null | undefined) =>
  n === null || n === undefined ? 'null' : String(round4(Number(n)));

// ---------------------------------------------------------------------------------------------
// Receiving stock (POST /inventory)

export interface StockLine {
  productId: string;
  quantity: number;
  price?: number | null;
  batchNumber?: string | null;
  locationId?: string | null;
  originalPurchaseOrderId?: string | null;
  stockSource?: StockSource | null;
}

/**
 * Adds the lines to the stock of a site: per product, in one transaction, each product's
 * inventory locked (made when missing). Products are locked in id order, so two requests over
 * the same products cannot deadlock. Returns one inventory per product, in the order the
 * products first appear in the request.
 */
export async function addStock(
  ctx: Context,
  input: { stockSiteId: string; subsidiaryId?: string | null; products: StockLine[] },
): Promise<StockInventory[]> {
  if (input.products.length === 0) throw badRequest('products: at least one product is needed');
  input.products.forEach((line, i) => {
    if (!(line.quantity > 0)) throw badRequest(`products[${i}].quantity must be greater than 0`);
    if (line.price != null && line.price < 0) throw badRequest(`products[${i}].price must not be negative`);
  });
  const site = await siteOrFail(ctx, input.stockSiteId);
  const subsidiaryId = subsidiaryAt(site, input.subsidiaryId);
  inventoryService.checkScopeValue(callerOf(ctx), subsidiaryId);
  const known = await productsOrFail(
    ctx,
    input.products.map((l) => l.productId),
  );
  const order = [...new Set(input.products.map((l) => l.productId))];
  const result = new Map<string, StockInventory>();
  await inTransaction(ctx.em, async () => {
    for (const productId of [...order].sort()) {
      const lines = input.products.filter((l) => l.productId === productId);
      const inv = await changeStock(
        ctx,
        { siteId: site.id, productId, subsidiaryId },
        { create: true },
        (ledger) => {
          for (const line of lines) {
            ledger.receive({
              ...line,
              // Without a price, the stock comes in at what it is valued at now (or the list price).
              price:
                line.price ??
                (ledger.inventory.totalQuantity > 0
                  ? Number(ledger.inventory.unitPrice)
                  : Number(known.get(productId)!.unitPrice ?? 0)),
            });
          }
        },
      );
      result.set(productId, inv);
    }
  });
  return order.map((id) => result.get(id)!);
}

// ---------------------------------------------------------------------------------------------
// Adjusting (POST /inventory/adjust) and changing one batch (PUT /inventory/batches)

export async function adjustStock(
  ctx: Context,
  input: { productId: string; stockSiteId: string; newQuantity: number; newUnitPrice?: number | null },
): Promise<StockInventory> {
  if (!(input.newQuantity >= 0)) throw badRequest('newQuantity must not be negative');
  if (input.newUnitPrice != null && input.newUnitPrice < 0)
    throw badRequest('newUnitPrice must not be negative');
  const site = await siteOrFail(ctx, input.stockSiteId);
  await productsOrFail(ctx, [input.productId]);
  const subsidiaryId = subsidiaryAt(site, null);
  inventoryService.checkScopeValue(callerOf(ctx), subsidiaryId);
  return inTransaction(ctx.em, () =>
    changeStock(
      ctx,
      { siteId: site.id, productId: input.productId, subsidiaryId },
      { create: true },
      (ledger) => {
        const inv = ledger.inventory;
        const before = { quantity: Number(inv.totalQuantity), price: Number(inv.unitPrice) };
        ledger.setTotal(input.newQuantity, input.newUnitPrice);
        const parts = [`quantity ${fmt(before.quantity)} -> ${fmt(input.newQuantity)}`];
        if (input.newUnitPrice != null && input.newUnitPrice !== before.price) {
          parts.push(`unitPrice ${fmt(before.price)} -> ${fmt(input.newUnitPrice)}`);
        }
        ledger.note(ctx, `Adjusted ${parts.join(', ')}`);
      },
    ),
  );
}

export interface BatchChange {
  stockSiteId: string;
  productId: string;
  batchNumber?: string | null;
  locationId?: string | null;
  quantity?: number | null;
  expirationDate?: Date | null;
  productionDate?: Date | null;
}

/**
 * Changes one batch, named by site, product, batch number and location (an absent number or
 * location names the batch without one). Given fields change; a quantity of 0 removes the batch.
 */
export async function updateBatch(ctx: Context, dto: BatchChange): Promise<StockInventory> {
  if (dto.quantity != null && !(dto.quantity >= 0)) throw badRequest('quantity must not be negative');
  const site = await siteOrFail(ctx, dto.stockSiteId);
  await productsOrFail(ctx, [dto.productId]);
  const label = `batch ${dto.batchNumber ?? '(no number)'} at location ${dto.locationId ?? '(none)'}`;
  return inTransaction(ctx.em, () =>
    changeStock(
      ctx,
      { siteId: site.id, productId: dto.productId, subsidiaryId: null },
      { create: false, missing: () => notFound(`${label} of product ${dto.productId} does not exist`) },
      (ledger) => {
        const batch = ledger.batch(dto.batchNumber, dto.locationId);
        if (!batch) throw notFound(`${label} of product ${dto.productId} does not exist`);
        const changes: string[] = [];
        const day = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : 'null');
        if (dto.expirationDate != null && day(dto.expirationDate) !== day(batch.expirationDate)) {
          changes.push(`expirationDate ${day(batch.expirationDate)} -> ${day(dto.expirationDate)}`);
          batch.expirationDate = dto.expirationDate;
        }
        if (dto.productionDate != null && day(dto.productionDate) !== day(batch.productionDate)) {
          changes.push(`productionDate ${day(batch.productionDate)} -> ${day(dto.productionDate)}`);
          batch.productionDate = dto.productionDate;
        }
        if (dto.quantity != null && round4(dto.quantity) !== Number(batch.quantity)) {
          changes.push(`quantity ${fmt(batch.quantity)} -> ${fmt(dto.quantity)}`);
          ledger.setBatchQuantity(batch, round4(dto.quantity));
        }
        if (changes.length > 0) ledger.note(ctx, `Changed ${label}: ${changes.join(', ')}`);
      },
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// Locations of an inventory (derived from its batches, one query per page)

export async function locationsOf(ctx: Context, inv: StockInventory): Promise<StockLocation[]> {
  const batches = await loaderManyBy(ctx, StockBatch, 'inventoryId').load(inv.id);
  const byLocation = new Map<string | null, StockBatch[]>();
  for (const b of [...batches].sort(fefo)) {
    const key = b.locationId ?? null;
    if (!byLocation.has(key)) byLocation.set(key, []);
    byLocation.get(key)!.push(b);
  }
  const latest = (ds: (Date | null | undefined)[], pick: (a: number, b: number) => number) => {
    const times = ds.filter((d): d is Date => !!d).map((d) => new Date(d).getTime());
    return times.length ? new Date(times.reduce((x, y) => pick(x, y))) : null;
  };
  return [...byLocation.entries()]
    .sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b)))
    .map(([id, list]) => ({
      id,
      totalQuantity: round4(list.reduce((s, b) => s + Number(b.quantity), 0)),
      lastStockDate: latest(
        list.map((b) => b.lastStockDate),
        Math.max,
      ),
      earliestExpirationDate: latest(
        list.map((b) => b.expirationDate),
        Math.min,
      ),
      batches: list,
    }));
}

// ---------------------------------------------------------------------------------------------
// Batch search (GET /inventory/batch-search)

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

// ---------------------------------------------------------------------------------------------
// Product stock search (GET /inventory/dynamic-product-stock-inventory-search)

/** The row fields a product stock search may filter or sort by, and the product field each is. */
const PRODUCT_FIELDS: Record<string, string> = {
  productId: 'id',
  productName: 'name',
  productType: 'productType',
  salesPrice: 'salesPrice',
  currency: 'currency',
};

function toProductField(field: string, what: 'filter' | 'sort'): string {
  const mapped = PRODUCT_FIELDS[field];
  if (!mapped) {
    throw badRequest(
      `${what} field '${field}' does not exist in 'ProductStockRow' or cannot be used; use one of ${Object.keys(PRODUCT_FIELDS).join(', ')}`,
    );
  }
  return mapped;
}

interface Figures {
  total: number;
  reserved: number;
  available: number;
  minimum: number | null;
  maximum: number | null;
  unitPrice: number | null;
  subsidiaryId: string | null;
}

const sumOrNull = (values: (number | null | undefined)[]) =>
  values.some((v) => v != null) ? round4(values.reduce<number>((s, v) => s + Number(v ?? 0), 0)) : null;

/**
 * The figures of each product: at `site`, or summed over every site the caller sees when no site
 * is named (thresholds summed too; the price weighted by quantity). One query for the page.
 */
async function figuresOf(
  ctx: Context,
  productIds: string[],
  site: StockSite | null,
): Promise<Map<string, Figures>> {
  if (productIds.length === 0) return new Map();
  const rows = await inventoryService.list(ctx, {
    productId: { $in: productIds },
    ...(site ? { siteId: site.id } : {}),
  });
  const byProduct = new Map<string, StockInventory[]>();
  for (const r of rows) {
    if (!byProduct.has(r.productId)) byProduct.set(r.productId, []);
    byProduct.get(r.productId)!.push(r);
  }
  const out = new Map<string, Figures>();
  for (const [productId, list] of byProduct) {
    const total = round4(list.reduce((s, r) => s + Number(r.totalQuantity), 0));
    const value = list.reduce((s, r) => s + Number(r.totalQuantity) * Number(r.unitPrice), 0);
    out.set(productId, {
      total,
      reserved: round4(list.reduce((s, r) => s + Number(r.reservedQuantity), 0)),
      available: round4(list.reduce((s, r) => s + Number(r.availableQuantity), 0)),
      minimum: sumOrNull(list.map((r) => r.minimum)),
      maximum: sumOrNull(list.map((r) => r.maximum)),
      unitPrice: total > 0 ? round4(value / total) : list.length === 1 ? Number(list[0].unitPrice) : null,
      subsidiaryId: list.length === 1 ? (list[0].subsidiaryId ?? null) : (site?.subsidiaryId ?? null),
    });
  }
  return out;
}

/**
 * One row per product matching the search (the S6 search over products: terms match name, brand
 * and category), with its stock at `stockSiteId` (zero where the site holds none) and, when
 * `destinationStockSiteId` is given, its stock there.
 */
export async function searchProductStock(
  ctx: Context,
  input: SearchInput,
  stockSiteId?: string | null,
  destinationStockSiteId?: string | null,
): Promise<Page<ProductStockRow>> {
  const source = stockSiteId ? await siteOrFail(ctx, stockSiteId) : null;
  const destination = destinationStockSiteId
    ? await siteOrFail(ctx, destinationStockSiteId, 'destinationStockSiteId')
    : null;
  const page = await productService.search(ctx, {
    ...input,
    filters: input.filters?.map((f) => ({ ...f, field: toProductField(f.field, 'filter') })),
    sort: input.sort?.map((s) => ({ ...s, field: toProductField(s.field, 'sort') })),
  });
  const ids = page.content.map((p) => p.id);
  const here = await figuresOf(ctx, ids, source);
  const there = destination ? await figuresOf(ctx, ids, destination) : new Map<string, Figures>();
  const content = page.content.map((product): ProductStockRow => {
    const f = here.get(product.id);
    const d = there.get(product.id);
    const destinationInfo: DestinationProductInfo | null = destination
      ? {
          amountAvailable: d?.available ?? 0,
          amountReserved: d?.reserved ?? 0,
          maximum: d?.maximum ?? null,
          minimum: d?.minimum ?? null,
          totalAmount: d?.total ?? 0,
          stockSiteId: destination.id,
          stockSiteName: destination.name,
        }
      : null;
    return {
      amountAvailable: f?.available ?? 0,
      amountReserved: f?.reserved ?? 0,
      totalAmount: f?.total ?? 0,
      minimum: f?.minimum ?? null,
      maximum: f?.maximum ?? null,
      unitPrice: f?.unitPrice ?? (product.unitPrice != null ? Number(product.unitPrice) : null),
      salesPrice: product.salesPrice != null ? Number(product.salesPrice) : null,
      baseUnit: product.baseUnit ?? null,
      unitsOfMeasurement: product.unitsOfMeasurement ?? [],
      currency: product.currency ?? null,
      imageBlobId: product.imageBlobId ?? null,
      productId: product.id,
      productName: product.name ?? null,
      productType: product.productType ?? null,
      stockSiteId: source?.id ?? null,
      stockSiteName: source?.name ?? null,
      subsidiaryId: f?.subsidiaryId ?? source?.subsidiaryId ?? null,
      destinationProductInfo: destinationInfo,
    };
  });
  return { ...page, content };
}
