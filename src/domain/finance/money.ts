import { badRequest } from '../../errors';

/**
 * Exact money arithmetic for invoices. Binary floating point cannot hold 0.1 or 1.005, so
 * "round half away from zero" done on doubles rounds 1.005 down; here every amount is an integer
 * of cents (bigint) and every factor an exact decimal, and rounding happens once per computed
 * amount.
 */

/** A decimal as an integer and a power-of-ten scale: 12.345 is {units: 12345n, scale: 3}. */
export interface Decimal {
  units: bigint;
  scale: number;
}

/** The decimal a JavaScript number or a numeric column's text shows (shortest round-trip form). */
export function decimalOf(value: number | string): Decimal {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '') || (typeof value === 'number' && !Number.isFinite(value))) {
    throw badRequest(`${text} is not a number`);
  }
  const [, sign, whole, fraction = '', exponent = '0'] = m;
  let digits = `${whole}${fraction}`;
  let scale = fraction.length - Number(exponent);
  if (scale < 0) {
    digits += '0'.repeat(-scale);
    scale = 0;
  }
  const units = BigInt(digits === '' ? '0' : digits);
  return { units: sign === '-' ? -units : units, scale };
}

export const times = (a: Decimal, b: Decimal): Decimal => ({
  units: a.units * b.units,
  scale: a.scale + b.scale,
});

/** Divides by 100 (a percentage): exact, by moving the decimal point. */
export const percentOf = (a: Decimal): Decimal => ({ units: a.units, scale: a.scale + 2 });

/** Rounds to whole cents, half away from zero. */
export function toCents(d: Decimal): bigint {
  if (d.scale <= 2) return d.units * 10n ** BigInt(2 - d.scale);
  const divisor = 10n ** BigInt(d.scale - 2);
  const quotient = d.units / divisor; // bigint division truncates toward zero
  const remainder = d.units % divisor;
  const magnitude = remainder < 0n ? -remainder : remainder;
  if (magnitude * 2n < divisor) return quotient;
  return quotient + (d.units < 0n ? -1n : 1n);
}

export const centsDecimal = (cents: bigint): Decimal => ({ units: cents, scale: 2 });

/** Cents as the number a response shows (the double nearest to the two-decimal amount). */
export const amount = (cents: bigint): number => Number(cents) / 100;

/** An amount given by a client or read from a column, rounded to cents. */
export const cents = (value: number | string | null | undefined): bigint =>
  value === null || value === undefined ? 0n : toCents(decimalOf(value));

export const sumCents = (values: readonly bigint[]): bigint => values.reduce((s, v) => s + v, 0n);

/**
 * The largest amount a money column (numeric(14,2)) holds; larger computed amounts are the
 * client's mistake and are refused with the field named rather than failing in the database.
 */
const LIMIT = 10n ** 14n;

export function checkRange(value: bigint, field: string): bigint {
  if (value >= LIMIT || value <= -LIMIT) throw badRequest(`${field} is too large: at most 999999999999.99`);
  return value;
}

/** -1, 0 or 1. */
export const signOf = (v: bigint): number => (v > 0n ? 1 : v < 0n ? -1 : 0);

/**
 * How far `paid` settles `total`: nothing paid, part of it, or all of it (payments in the total's
 * direction at least as large as the total; anything paid against a zero total settles it). A
 * credit note has a negative total and is settled by refunds (negative amounts).
 */
export type Settlement = 'NONE' | 'PARTIAL' | 'FULL';

export function settlement(paid: bigint, total: bigint): Settlement {
  if (paid === 0n) return 'NONE';
  if (total === 0n) return 'FULL';
  const direction = BigInt(signOf(total));
  return paid * direction >= total * direction ? 'FULL' : 'PARTIAL';
}

/** The rate applied to a row that names none when its tenant sets no `defaultVat`. */
export const DEFAULT_TAX_RATE = 21;

export interface LineInput {
  quantity: number;
  unitPrice: number;
  taxRate: number;
  /** The quantity is a percentage of the unit price (a deposit of 30% of an order). */
  percentage?: boolean;
  /** Forces the sign of the line total: -1 for discounts and credit notes. */
  direction?: 1 | -1;
}

export interface LineAmounts {
  total: bigint;
  taxAmount: bigint;
  totalWithTax: bigint;
}

/**
 * A row's quantity, unit price and tax rate, with the defaults of a row that names none (the rate:
 * the tenant's `defaultVat` where the caller passes it).
 */
export function lineInput(
  row: {
    quantity?: number | null;
    unitPrice?: number | null;
    taxRate?: number | null;
  },
  defaultRate: number = DEFAULT_TAX_RATE,
): LineInput {
  return {
    quantity: row.quantity ?? 1,
    unitPrice: row.unitPrice ?? 0,
    taxRate: row.taxRate ?? defaultRate,
  };
}

/** A row's amounts as the row shows them. */
export const shownAmounts = (
  line: LineAmounts,
): { taxAmount: number; total: number; totalWithTax: number } => ({
  taxAmount: amount(line.taxAmount),
  total: amount(line.total),
  totalWithTax: amount(line.totalWithTax),
});

/**
 * An invoice's totals: the sums of its rows' rounded amounts, each refused beyond the column's
 * range under the name of the invoice field that holds it.
 */
export function sumLines(
  lines: readonly LineAmounts[],
  fields: Record<keyof LineAmounts, string>,
): LineAmounts {
  return {
    total: checkRange(sumCents(lines.map((a) => a.total)), fields.total),
    taxAmount: checkRange(sumCents(lines.map((a) => a.taxAmount)), fields.taxAmount),
    totalWithTax: checkRange(sumCents(lines.map((a) => a.totalWithTax)), fields.totalWithTax),
  };
}

/** What some payments add up to, refused beyond the column's range under `field`. */
export const paidCents = (payments: readonly { amount: number }[], field: string): bigint =>
  checkRange(sumCents(payments.map((p) => cents(p.amount))), field);

/**
 * One row's amounts: total = quantity x unitPrice (divided by 100 for a percentage), rounded to
 * cents; tax = total x taxRate / 100, rounded to cents; totalWithTax = their sum. Rounding the
 * row's amounts (not the invoice's) makes the rows add up to the invoice totals exactly.
 */
export function lineAmounts(line: LineInput, field: string): LineAmounts {
  let net = times(decimalOf(line.quantity), decimalOf(line.unitPrice));
  if (line.percentage) net = percentOf(net);
  let total = toCents(net);
  if (line.direction !== undefined && signOf(total) === -line.direction) total = -total;
  checkRange(total, `${field}.total`);
  const taxAmount = toCents(percentOf(times(centsDecimal(total), decimalOf(line.taxRate))));
  return { total, taxAmount, totalWithTax: checkRange(total + taxAmount, `${field}.totalWithTax`) };
}
