/** Rounds to the four decimals that quantities and prices are stored with (numeric(14,4)). */
export const round4 = (n: number): number => Math.round(n * 10_000) / 10_000;

/** The sum of the quantities of `items` (absent quantities count as zero). */
export const sumOf = (items: readonly { quantity?: number | null }[]): number =>
  round4(items.reduce((s, i) => s + Number(i.quantity ?? 0), 0));
