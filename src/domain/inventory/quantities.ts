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
