/** Rounds to the four decimals that quantities and prices are stored with (numeric(14,4)). */
export const round4 = (n: number): number => Math.round(n * 10_000) / 10_000;

/** The sum of the quantities of `items` (absent quantities count as zero). */
export const sumOf = (items: readonly { quantity?: number | null }[]): number =>
  round4(items.reduce((s, i) => s + Number(i.quantity ?? 0), 0));

/** The quantity of each product in a list of product quantities. */
export function perProduct(items: readonly { productId?: string | null; quantity?: number | null }[]) {
  const out = new Map<string, number>();
  for (const item of items) {
    if (!item.productId) continue;
    out.set(item.productId, round4((out.get(item.productId) ?? 0) + Number(item.quantity ?? 0)));
  }
  return out;
}

/**
 * Base units per unit of each product of a transfer's lines: their base quantity over their
 * quantity (1 for a product without quantity). Stock moves in base units.
 */
export function unitRates(
  lines: readonly { productId?: string | null; quantity?: number | null; baseUnitQuantity?: number | null }[],
): Map<string, number> {
  const quantity = perProduct(lines);
  const base = perProduct(
    lines.map((l) => ({ productId: l.productId, quantity: l.baseUnitQuantity ?? l.quantity })),
  );
  const out = new Map<string, number>();
  for (const [id, q] of quantity) out.set(id, q > 0 ? (base.get(id) ?? q) / q : 1);
  return out;
}
