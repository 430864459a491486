/**
 * An inventory's locations in SQL (api/inventory-locations.ts registers it as the list source of
 * `StockLocation`, for searches on `locations.totalQuantity` and the other figures): the
 * inventory's batches of its own tenant, grouped by location as locationsOf groups them. `a` is
 * the alias of the inventory's row.
 */
export const stockLocationsSql = (a: string): string =>
  `select b.location_id as "id", round(sum(b.quantity), 4) as "totalQuantity", max(b.last_stock_date) as "lastStockDate", min(b.expiration_date) as "earliestExpirationDate" from stock_batch b where b.tenant_id = ${a}.tenant_id and b.inventory_id = ${a}.id group by b.location_id`;
