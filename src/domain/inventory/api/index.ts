import type { GroupDef } from '../../../family/group';
import { StockInventoryResolver } from './inventory-resolver';
import { stockInventories } from './stock-inventories';
import { stockTransfers } from './stock-transfers';
import { EnrichedStockTransferResolver } from './transfer-resolver';
import { wasteRecords } from './waste';
import { WasteRecordResolver } from './waste-resolver';

/** Groups with the standard family, and other resolvers, of this domain. */
export const inventoryGroups: GroupDef<any, any, any>[] = [stockInventories, stockTransfers, wasteRecords];
export const inventoryResolvers: Function[] = [
  StockInventoryResolver,
  EnrichedStockTransferResolver,
  WasteRecordResolver,
];
