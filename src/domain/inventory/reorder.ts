import type { StockInventory } from './entities/stock-inventory';
import { round4 } from './quantities';

/** The figures of an inventory a reorder suggestion is made of. */
type Stocked = Pick<StockInventory, 'availableQuantity' | 'inTransitQuantity' | 'minimum' | 'maximum'>;

/**
 * How much to order for an inventory at or below its minimum, as Odoo's and ERPNext's reordering
 * rules do: enough to bring what is available and on its way up to the maximum (the minimum when
 * no maximum is set). Null when the inventory has no minimum, is above it, or has enough coming.
 */
export function reorderQuantity(inv: Stocked): number | null {
  if (inv.minimum === null || inv.minimum === undefined) return null;
  const available = Number(inv.availableQuantity);
  if (available > Number(inv.minimum)) return null;
  const target = Number(inv.maximum ?? inv.minimum);
  const quantity = round4(target - available - Number(inv.inTransitQuantity));
  return quantity > 0 ? quantity : null;
}
