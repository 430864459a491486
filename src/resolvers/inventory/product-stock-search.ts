import { type Context } from '../../context';
import { StockInventory } from '../../entities/inventory/stock-inventory';
import { round4 } from '../../domain/inventory/quantities';
import type { StockSite } from '../../entities/reference/stock-site';
import type { DerivedSql, FieldInfo } from '../../family/fields';
import { isUuid } from '../../family/limits';
import { type Page } from '../../family/page';
import { scopeSql } from '../../family/scope-sql';
import { type SearchInput } from '../../family/search-input';
import type { DestinationProductInfo, ProductStockRow } from './stock-view-types';
import { siteOrFail } from './places';
import { inventoryService, productService } from './inventory-service';

/** Product stock search (GET /inventory/dynamic-product-stock-inventory-search). */

/** The row fields that are the product's own, and the product field each is. */
const PRODUCT_FIELDS: Record<string, string> = {
  productId: 'id',
  productName: 'name',
  productType: 'productType',
  salesPrice: 'salesPrice',
  currency: 'currency',
};

/** The stock figures a row sums over the product's inventories, as the SQL aggregate of each. */
const FIGURES: Record<string, { sql: string; nullable: boolean }> = {
  totalAmount: { sql: 'coalesce(round(sum(si.total_quantity), 4), 0)', nullable: false },
  amountReserved: { sql: 'coalesce(round(sum(si.reserved_quantity), 4), 0)', nullable: false },
  amountAvailable: { sql: 'coalesce(round(sum(si.available_quantity), 4), 0)', nullable: false },
  minimum: { sql: 'round(sum(si.minimum), 4)', nullable: true },
  maximum: { sql: 'round(sum(si.maximum), 4)', nullable: true },
  // Weighted by quantity; a single inventory without stock keeps its own price (figuresOf).
  unitPrice: {
    sql: 'case when sum(si.total_quantity) > 0 then round(sum(si.total_quantity * si.unit_price) / sum(si.total_quantity), 4) when count(*) = 1 then max(si.unit_price) end',
    nullable: true,
  },
};

/** The same, for the search's description. */
export const PRODUCT_STOCK_FIELDS_TEXT = `Filters and sort keys: ${Object.keys(PRODUCT_FIELDS).join(', ')}, and the stock figures at the site (summed over every site the caller sees without one) ${Object.keys(FIGURES).join(', ')}, computed in the database so pages and totals agree.`;

/**
 * The fields a product stock search filters and sorts on: the product's own under the row's
 * names, and the stock figures computed in SQL over the inventories `figuresOf` reads (at `site`,
 * or every site, within the caller's scope), so filters, sorts, pages and totals agree with the
 * rows answered.
 */
function rowFields(ctx: Context, site: StockSite | null): Map<string, FieldInfo> {
  const product = productService.fieldsOf(ctx.em);
  const fields = new Map<string, FieldInfo>();
  for (const [row, own] of Object.entries(PRODUCT_FIELDS))
    fields.set(row, { ...product.get(own)!, name: row });
  const atSite = site && isUuid(site.id) ? ` and si.site_id = '${site.id}'::uuid` : '';
  for (const [name, figure] of Object.entries(FIGURES)) {
    const aggregate: DerivedSql = (a, c) =>
      `select (${figure.sql})::float8 from stock_inventory si where si.tenant_id = ${a}.tenant_id and si.product_id = ${a}.id${atSite} and ${scopeSql('si.subsidiary_id', c, 'subsidiaryId')}`;
    fields.set(name, {
      name,
      kind: 'number',
      nullable: figure.nullable,
      // Without inventories a row shows the product's own price.
      derived:
        name === 'unitPrice'
          ? (a, c) => `coalesce((${aggregate(a, c)}), ${a}.unit_price::float8)`
          : aggregate,
    });
  }
  return fields;
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
  const page = await productService.search(ctx, input, undefined, {
    view: { name: 'ProductStockRow', fields: rowFields(ctx, source) },
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
