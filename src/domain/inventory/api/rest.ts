import { familyRoutes } from '../../../rest/family-routes';
import { body, bodyOrQuery, fromRequest, query, type RestRoute } from '../../../rest/route';
import { searchFromBody, searchFromQuery } from '../../../rest/search-params';
import { stockInventories } from './stock-inventories';
import { stockTransfers } from './stock-transfers';
import { wasteRecords } from './waste';

export const inventoryRoutes: RestRoute[] = [
  // Inventory
  {
    method: 'POST',
    path: '/inventory',
    field: 'addStock',
    args: { input: body() },
    status: 201,
    location: (r: { id: string }[]) => `/inventory/find/${r[0].id}`,
    code: 'create',
    summary: 'Add stock to a site (one inventory per product)',
  },
  ...familyRoutes(stockInventories, '/inventory', ['S6', 'S8', 'S9']),
  {
    method: 'POST',
    path: '/inventory/adjust',
    field: 'adjustStock',
    args: { input: body() },
    code: 'custom',
    summary: 'Set the quantity and price of a product at a site',
  },
  {
    method: 'GET',
    path: '/inventory/batch-search',
    field: 'searchBatches',
    code: 'custom',
    summary: 'Batches of a site with their products',
  },
  {
    method: 'PUT',
    path: '/inventory/batches',
    field: 'updateStockBatch',
    // The specification passes the change as flat query parameters; a JSON body of the same
    // fields is read too, so that clients generated from the document can call it either way.
    args: { dto: bodyOrQuery() },
    code: 'custom',
    summary: 'Change one batch (a JSON body, or the same fields as query parameters)',
  },
  {
    method: 'GET',
    path: '/inventory/dynamic-product-stock-inventory-search',
    field: 'searchProductStock',
    args: { input: fromRequest(searchFromQuery) },
    code: 'custom',
    summary: 'Products with their stock at a site and a destination',
  },

  {
    method: 'GET',
    path: '/inventory/reorder-suggestions',
    field: 'stockReorderSuggestions',
    code: 'custom',
    extension: true,
    summary: 'Products at or below their minimum and what to order to bring them up to their maximum',
  },

  // Stock transfers
  ...familyRoutes(stockTransfers, '/stock-transfers', ['S6', 'S7', 'S8', 'S9']),
  {
    method: 'POST',
    path: '/stock-transfers/dynamic-search-enriched',
    field: 'searchStockTransfersEnriched',
    args: { input: fromRequest(searchFromBody) },
    code: 'custom',
    summary: 'Dynamic search of transfers (enriched form)',
  },
  {
    method: 'POST',
    path: '/stock-transfers/empty',
    field: 'createEmptyStockTransfer',
    status: 201,
    location: (r: { id: string }) => `/stock-transfers/find/${r.id}`,
    code: 'custom',
    summary: 'Create an empty draft transfer',
  },
  {
    method: 'POST',
    path: '/stock-transfers/{id}/write-off',
    field: 'writeOffStockTransfer',
    args: { input: body() },
    code: 'custom',
    extension: true,
    summary:
      'Write off what a shipped transfer still has in transit (body: {reason}) and close it (status CLOSED)',
  },

  // Waste
  {
    method: 'POST',
    path: '/waste-management',
    field: 'registerWasteRecord',
    args: { input: body() },
    status: 201,
    location: (r: { id: string }) => `/waste-management/find/${r.id}`,
    code: 'create',
    summary: 'Register waste (body: {dto})',
  },
  ...familyRoutes(wasteRecords, '/waste-management', ['S1', 'S2', 'S3', 'S4', 'S5', 'S6', 'S7', 'S8', 'S9']),
  {
    method: 'GET',
    path: '/waste-management/by-shift/{shiftId}',
    field: 'wasteRecordsByShift',
    code: 'custom',
    summary: 'Waste records of a shift',
  },
  {
    method: 'GET',
    path: '/waste-management/find-by-list-of-ids',
    field: 'wasteRecords',
    args: { ids: query('ids') },
    code: 'custom',
    summary: 'Waste records by ids (ids required)',
  },
];
