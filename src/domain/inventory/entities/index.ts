import { StockBatch } from './stock-batch';
import { StockInventory } from './stock-inventory';
import { StockTransfer } from './stock-transfer';
import { WasteRecord } from './waste-record';

/** Entities of stock, transfers and waste registration. */
export const inventoryEntities: Function[] = [StockInventory, StockBatch, StockTransfer, WasteRecord];
