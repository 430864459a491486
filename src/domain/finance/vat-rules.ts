import type { Tenant } from '../../entities/tenant';
import { amount, cents, sumCents } from './money';

/** The member states of the European Union (ISO 3166-1 alpha-2), whose B2B trade the reverse charge covers. */
export const EU_COUNTRIES: ReadonlySet<string> = new Set([
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU',
  'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK',
]); // prettier-ignore

/**
 * The note a reverse-charged invoice must carry (Council Directive 2006/112/EC, article 226(11a)):
 * the buyer, not the seller, accounts for the VAT.
 */
export const REVERSE_CHARGE_NOTE =
  'Reverse charge: VAT to be accounted for by the recipient (Article 196 of Directive 2006/112/EC).';

/** A party's VAT identity as the rules read it: its VAT number and its country. */
export interface VatParty {
  vatNumber?: string | null;
  country?: string | null;
}

/**
 * A country as an ISO 3166-1 alpha-2 code, or null. The tenant's address holds a free-text
 * country, so a two-letter value is taken as the code and anything else as unknown.
 */
export function countryCode(value: string | null | undefined): string | null {
  const code = value?.trim().toUpperCase();
  return code && /^[A-Z]{2}$/.test(code) ? code : null;
}

/** The country a VAT number belongs to, from its prefix; Greece's prefix is EL, its ISO code GR. */
export function vatNumberCountry(vatNumber: string | null | undefined): string | null {
  const prefix = countryCode(vatNumber?.replace(/\s+/g, '').slice(0, 2));
  return prefix === 'EL' ? 'GR' : prefix;
}

/** The tenant as the seller: its billing VAT number and its billing address's country. */
export const sellerVatParty = (tenant: Pick<Tenant, 'billingInfo'>): VatParty => ({
  vatNumber: tenant.billingInfo?.vatNumber ?? null,
  country: tenant.billingInfo?.address?.country ?? null,
});

/** A party's country: the one it states, or else the one its VAT number names. */
export const partyCountry = (party: VatParty): string | null =>
  countryCode(party.country) ?? vatNumberCountry(party.vatNumber);

/**
 * Whether a sale is reverse-charged: business to business across EU borders, that is, seller and
 * buyer both have a VAT number and are in two different member states. The invoice then charges
 * no VAT and says why; the buyer declares it in its own country.
 */
export function isReverseCharge(seller: VatParty, buyer: VatParty): boolean {
  if (!seller.vatNumber?.trim() || !buyer.vatNumber?.trim()) return false;
  const from = partyCountry(seller);
  const to = partyCountry(buyer);
  return !!from && !!to && from !== to && EU_COUNTRIES.has(from) && EU_COUNTRIES.has(to);
}

/** One line of an invoice's VAT breakdown. */
export interface VatBreakdownLine {
  /** The rate in percent. */
  rate: number;
  /** The sum of the lines' amounts before tax at this rate. */
  taxable: number;
  /** The sum of the lines' tax at this rate. */
  tax: number;
}

/**
 * The VAT breakdown an EU invoice shows: per rate, the taxable amount and the tax, as sums of the
 * rows' rounded amounts (so they add up to the invoice's totals exactly). Text rows carry no
 * amount and are left out; rates are listed from the highest.
 */
export function vatBreakdown(
  rows: readonly { type?: string | null; taxRate?: number | null; total: number; taxAmount: number }[],
): VatBreakdownLine[] {
  const byRate = new Map<number, { taxable: bigint[]; tax: bigint[] }>();
  for (const row of rows) {
    if (row.type === 'TEXT') continue;
    const rate = row.taxRate ?? 0;
    const group = byRate.get(rate) ?? { taxable: [], tax: [] };
    group.taxable.push(cents(row.total));
    group.tax.push(cents(row.taxAmount));
    byRate.set(rate, group);
  }
  return [...byRate.entries()]
    .sort(([a], [b]) => b - a)
    .map(([rate, g]) => ({ rate, taxable: amount(sumCents(g.taxable)), tax: amount(sumCents(g.tax)) }));
}
