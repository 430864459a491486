import { type Context } from '../../context';
import { StockInventory } from '../../entities/inventory/stock-inventory';
import type { DestinationProductInfo, ProductStockRow } from './stock-view-types';
import { round4 } from '../../domain/inventory/quantities';
import type { StockSite } from '../../entities/reference/stock-site';
import { badRequest } from '../../errors';
import { type Page } from '../../family/page';
import { type SearchInput } from '../../family/search-input';
import { siteOrFail } from './places';
import { inventoryService, productService } from './inventory-service';

/** Product stock search (GET /inventory/dynamic-product-stock-inventory-search). */

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
