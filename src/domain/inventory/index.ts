import type { DomainModule } from '../../modules';
import { inventoryEntities } from './entities';
import { inventoryRoutes } from './api/rest';
import { StockInventoryResolver } from './api/inventory-resolver';
import { stockInventories } from './api/stock-inventories';
import { stockTransfers } from './api/stock-transfers';
import { EnrichedStockTransferResolver } from './api/transfer-resolver';
import { wasteRecords } from './api/waste';
import { WasteRecordResolver } from './api/waste-resolver';
import { reportExpiredBatches } from './expiry-report';

/** A transfer as its history answers it (src/domain/history/). */
export { EnrichedStockTransfer } from './api/enriched-stock-transfer-types';

/** Stock, transfers and waste registration. */
export const inventoryModule: DomainModule = {
  entities: inventoryEntities,
  groups: [stockInventories, stockTransfers, wasteRecords],
  resolvers: [StockInventoryResolver, EnrichedStockTransferResolver, WasteRecordResolver],
  routes: inventoryRoutes,
  scheduled: [
    {
      name: 'inventory.expired-batches',
      description: "writes each batch that expired in the day into its inventory's history",
      schedule: { dailyAt: '06:00' },
      perTenant: true,
      module: 'inventory',
      run: ({ em, now }) => reportExpiredBatches(em, now),
    },
  ],
};
