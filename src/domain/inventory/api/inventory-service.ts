import { FamilyService } from '../../../family/service';
import { products } from '../../reference';
import { stockInventories } from './stock-inventories';

/** The family services the inventory operations (receive-stock.ts, adjust-stock.ts, ...) share. */
export const inventoryService = new FamilyService(stockInventories);
export const productService = new FamilyService(products);
