import { type Context } from '../../../context';
import type { StockSite } from '../../reference/entities/stock-site';
import type { DerivedSql, FieldInfo } from '../../../family/fields';
import { isUuid } from '../../../limits';
import { derivedOf } from '../../../db/orm-bypass/detached';
import { type Page } from '../../../schema/page';
import { scopeSql } from '../../../family/scope-sql';
import { type SearchInput } from '../../../family/search-input';
import type { DestinationProductInfo, ProductStockRow } from './stock-view-types';
import { siteOrFail } from './places';
import { productService } from './inventory-service';

/** Product stock search (GET /inventory/dynamic-product-stock-inventory-search). */

/** The row fields that are the product's own, and the product field each is. */
const PRODUCT_FIELDS: Record<string, string> = {
  productId: 'id',
  productName: 'name',
  productType: 'productType',
  salesPrice: 'salesPrice',
  currency: 'currency',
  imageBlobId: 'imageBlobId',
  baseUnit: 'baseUnit',
};

/** The product's list of units, searched as the product search does (`unitsOfMeasurement.unit`). */
const UNITS = 'unitsOfMeasurement';

/** The figures the destination's info repeats (`destinationProductInfo.totalAmount` ...). */
const DESTINATION_FIGURES = ['totalAmount', 'amountReserved', 'amountAvailable', 'minimum', 'maximum'];
const DESTINATION = 'destinationProductInfo.';

/** The stock figures a row sums over the product's inventories, as the SQL aggregate of each. */
const FIGURES: Record<string, { sql: string; nullable: boolean }> = {
  totalAmount: { sql: 'coalesce(round(sum(si.total_quantity), 4), 0)', nullable: false },
  amountReserved: { sql: 'coalesce(round(sum(si.reserved_quantity), 4), 0)', nullable: false },
  amountAvailable: { sql: 'coalesce(round(sum(si.available_quantity), 4), 0)', nullable: false },
  minimum: { sql: 'round(sum(si.minimum), 4)', nullable: true },
  maximum: { sql: 'round(sum(si.maximum), 4)', nullable: true },
  // Weighted by quantity; a single inventory without stock keeps its own price.
  unitPrice: {
    sql: 'case when sum(si.total_quantity) > 0 then round(sum(si.total_quantity * si.unit_price) / sum(si.total_quantity), 4) when count(*) = 1 then max(si.unit_price) end',
    nullable: true,
  },
};

/** The same, for the search's description. */
export const PRODUCT_STOCK_FIELDS_TEXT = `Filters and sort keys: ${Object.keys(PRODUCT_FIELDS).join(', ')}, stockSiteId, stockSiteName, subsidiaryId, the stock figures at the site (summed over every site the caller sees without one) ${Object.keys(FIGURES).join(', ')}, and those at the destination as destinationProductInfo.<figure> (${DESTINATION_FIGURES.join(', ')}), destinationProductInfo.stockSiteId and destinationProductInfo.stockSiteName, computed in the database so pages and totals agree. The product's units are a list of objects: ${UNITS} takes isNull and notNull, and ${UNITS}.<field> matches when some unit matches; neither is a sort key.`;

const quoted = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** A value every row of this search shares (the site named in the request), as SQL. */
const constant = (name: string, value: string | null | undefined): FieldInfo => ({
  name,
  kind: 'string',
  nullable: true,
  derived: () => (value == null ? 'null::text' : `${quoted(value)}::text`),
});

/**
 * The inventories a row sums over: the product's, at `site` (every site without one), within the
 * caller's subsidiary scope.
 */
const inventoriesOf = (site: StockSite | null) => {
  const atSite = site && isUuid(site.id) ? ` and si.site_id = '${site.id}'::uuid` : '';
  return (a: string, c: Context) =>
    `from stock_inventory si where si.tenant_id = ${a}.tenant_id and si.product_id = ${a}.id${atSite} and ${scopeSql('si.subsidiary_id', c, 'subsidiaryId')}`;
};

/** The stock figures at `site`, by name, as SQL. */
function figureFields(site: StockSite | null, prefix = ''): Map<string, FieldInfo> {
  const inventories = inventoriesOf(site);
  const fields = new Map<string, FieldInfo>();
  for (const [name, figure] of Object.entries(FIGURES)) {
    const aggregate: DerivedSql = (a, c) => `select (${figure.sql})::float8 ${inventories(a, c)}`;
    fields.set(prefix + name, {
      name: prefix + name,
      kind: 'number',
      nullable: figure.nullable,
      derived: aggregate,
    });
  }
  return fields;
}

/**
 * The fields a product stock search filters and sorts on: the product's own under the row's
 * names, the sites the request names, and the stock figures computed in SQL over the inventories
 * (at `site`, or every site, within the caller's scope). The row's figures are the same
 * expressions selected with the page, so filters, sorts, pages and totals agree with the rows
 * answered: one rule, in SQL.
 */
function rowFields(
  ctx: Context,
  site: StockSite | null,
  destination: StockSite | null,
): Map<string, FieldInfo> {
  const product = productService.fieldsOf(ctx.em);
  const fields = new Map<string, FieldInfo>();
  for (const [row, own] of Object.entries(PRODUCT_FIELDS))
    fields.set(row, { ...product.get(own)!, name: row });
  // The product's units under the same name: the list, and a path into its elements by "some element".
  for (const [name, field] of product)
    if (name === UNITS || name.startsWith(`${UNITS}.`)) fields.set(name, field);
  fields.set('stockSiteId', constant('stockSiteId', site?.id));
  fields.set('stockSiteName', constant('stockSiteName', site?.name));
  // One inventory: its subsidiary; otherwise (or when it has none) the site's, as the row shows.
  const inventories = inventoriesOf(site);
  const siteSubsidiary = site?.subsidiaryId ? `${quoted(site.subsidiaryId)}::text` : 'null::text';
  fields.set('subsidiaryId', {
    name: 'subsidiaryId',
    kind: 'string',
    nullable: true,
    derived: (a, c) =>
      `select coalesce(case when count(*) = 1 then max(si.subsidiary_id::text) end, ${siteSubsidiary}) ${inventories(a, c)}`,
  });
  for (const [name, field] of figureFields(site)) {
    // Without inventories a row shows the product's own price.
    const derived = field.derived!;
    fields.set(
      name,
      name === 'unitPrice'
        ? { ...field, derived: (a, c) => `coalesce((${derived(a, c)}), ${a}.unit_price::float8)` }
        : field,
    );
  }
  // Without a destination its info is null, and so is every field in it.
  for (const [name, field] of figureFields(destination, DESTINATION))
    if (DESTINATION_FIGURES.includes(name.slice(DESTINATION.length)))
      fields.set(name, destination ? field : { ...field, nullable: true, derived: () => 'null::float8' });
  fields.set(`${DESTINATION}stockSiteId`, constant(`${DESTINATION}stockSiteId`, destination?.id));
  fields.set(`${DESTINATION}stockSiteName`, constant(`${DESTINATION}stockSiteName`, destination?.name));
  return fields;
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
  const atSite = [...Object.keys(FIGURES), 'subsidiaryId'];
  const atDestination = destination ? DESTINATION_FIGURES.map((f) => DESTINATION + f) : [];
  // The row's figures are selected with the page, by the same SQL its filters and sorts use.
  const page = await productService.search(ctx, input, undefined, {
    view: {
      name: 'ProductStockRow',
      fields: rowFields(ctx, source, destination),
      select: [...atSite, ...atDestination],
    },
  });
  const content = page.content.map((product): ProductStockRow => {
    const f = derivedOf(product) as Record<string, number | string | null>;
    const figure = (name: string) => f[name] as number | null;
    const destinationInfo: DestinationProductInfo | null = destination
      ? {
          amountAvailable: figure(`${DESTINATION}amountAvailable`)!,
          amountReserved: figure(`${DESTINATION}amountReserved`)!,
          maximum: figure(`${DESTINATION}maximum`),
          minimum: figure(`${DESTINATION}minimum`),
          totalAmount: figure(`${DESTINATION}totalAmount`)!,
          stockSiteId: destination.id,
          stockSiteName: destination.name,
        }
      : null;
    return {
      amountAvailable: figure('amountAvailable')!,
      amountReserved: figure('amountReserved')!,
      totalAmount: figure('totalAmount')!,
      minimum: figure('minimum'),
      maximum: figure('maximum'),
      unitPrice: figure('unitPrice'),
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
      subsidiaryId: f.subsidiaryId as string | null,
      destinationProductInfo: destinationInfo,
    };
  });
  return { ...page, content };
}
