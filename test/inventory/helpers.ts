import type { Client } from '../support/http';

export const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const MISSING = '6a1e7d1c-3b0b-4a7e-9d6f-00000000abcd';

const AUDIT = ['tenantId', 'id', 'created', 'createdBy', 'updated', 'updatedBy', 'events'];

/** The exact REST fields of each documented shape (docs/conventions.md: every documented field, no more). */
export const FIELDS = {
  inventory: [
    ...AUDIT,
    'productId',
    'siteId',
    'subsidiaryId',
    'status',
    'availableQuantity',
    'inTransitQuantity',
    'reservedQuantity',
    'totalQuantity',
    'minimum',
    'maximum',
    'unitPrice',
    'locations',
    'inTransitStock',
    'reservations',
  ],
  location: ['id', 'totalQuantity', 'lastStockDate', 'earliestExpirationDate', 'batches'],
  batch: [
    'batchNumber',
    'expirationDate',
    'lastStockDate',
    'originalPurchaseOrderId',
    'productionDate',
    'quantity',
    'stockSource',
    'uomSplit',
  ],
  batchRow: [
    'batchNumber',
    'brand',
    'category',
    'locationId',
    'productId',
    'productName',
    'expirationDate',
    'lastStockDate',
    'productionDate',
    'quantity',
    'unitPrice',
    'imageAssets',
  ],
  productStockRow: [
    'amountAvailable',
    'amountReserved',
    'maximum',
    'minimum',
    'salesPrice',
    'totalAmount',
    'unitPrice',
    'baseUnit',
    'unitsOfMeasurement',
    'currency',
    'imageBlobId',
    'productId',
    'productName',
    'stockSiteId',
    'stockSiteName',
    'subsidiaryId',
    'productType',
    'destinationProductInfo',
  ],
  destinationInfo: [
    'amountAvailable',
    'amountReserved',
    'maximum',
    'minimum',
    'totalAmount',
    'stockSiteId',
    'stockSiteName',
  ],
  transferCommon: [
    ...AUDIT,
    'transferNumber',
    'note',
    'stockSiteId',
    'subsidiaryId',
    'incomingStockTransferId',
    'status',
    'priority',
    'deliveryMethod',
    'deliveryDate',
    'picklistIds',
    'batchAllocations',
    'products',
    'reservedProducts',
  ],
  transferSearch: ['destinationStockSiteId', 'isFullyCancelled', 'cancelledProducts'],
  transferEnriched: [
    'destinationSiteId',
    'incomingStockTransferStatus',
    'cancelledProducts',
    'productStatus',
    'reservationsGroupedBySite',
  ],
  productStatus: [
    'finishedQuantity',
    'quantityCanBeCancelled',
    'quantityCancelled',
    'quantityDelivered',
    'quantityOrdered',
    'quantityPending',
    'quantityPicked',
    'quantityReservedPicklist',
    'quantityReservedUnassigned',
    'quantityReturned',
    'quantityShipped',
    'unitPrice',
    'productId',
    'returnStarted',
  ],
  enrichedProduct: [
    'baseUnitConversion',
    'baseUnitQuantity',
    'pricePerBaseUnit',
    'pricePerUnit',
    'quantity',
    'totalPrice',
    'productId',
    'unit',
    'availableStock',
    'pending',
    'price',
    'quantityCancelled',
    'quantityDelivered',
    'quantityPicked',
    'quantityReturned',
    'quantityShipped',
    'totalReserved',
    'productName',
    'batchAllocations',
    'imageAssets',
    'reservations',
    'returnStarted',
    'unitsOfMeasurement',
  ],
  waste: [
    ...AUDIT,
    'approvedBy',
    'productId',
    'reason',
    'shiftId',
    'stockSiteId',
    'subsidiaryId',
    'quantity',
    'deductRawMaterials',
    'image',
  ],
  page: [
    'content',
    'empty',
    'first',
    'last',
    'number',
    'numberOfElements',
    'size',
    'totalElements',
    'totalPages',
    'sort',
    'pageable',
  ],
};

export const keys = (o: object) => Object.keys(o).sort();
export const sorted = (list: string[]) => [...list].sort();

async function gql(client: Client, query: string, variables?: Record<string, unknown>) {
  const res = await client.graphql(query, variables);
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
  return res.body.data;
}

export async function createSite(client: Client, name: string, subsidiaryId?: string): Promise<string> {
  const data = await gql(
    client,
    `mutation($input: StockSiteInput!) { createStockSite(input: $input) { id } }`,
    { input: { name, subsidiaryId } },
  );
  return data.createStockSite.id;
}

export async function createSubsidiary(client: Client, name: string): Promise<string> {
  const data = await gql(
    client,
    `mutation($input: SubsidiaryInput!) { createSubsidiary(input: $input) { id } }`,
    { input: { name } },
  );
  return data.createSubsidiary.id;
}

export async function createProduct(client: Client, input: Record<string, unknown>): Promise<string> {
  const data = await gql(client, `mutation($input: ProductInput!) { createProduct(input: $input) { id } }`, {
    input,
  });
  return data.createProduct.id;
}

export function addStock(
  client: Client,
  stockSiteId: string,
  products: Record<string, unknown>[],
  extra: Record<string, unknown> = {},
) {
  return client.post('/inventory', { stockSiteId, products, ...extra });
}

export { gql };
