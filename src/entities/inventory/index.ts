/** Entities of stock, transfers and waste registration. */
export const inventoryEntities: Function[] = [];
