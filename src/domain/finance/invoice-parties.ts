import type { Tenant } from '../../entities/tenant';
import type { Customer } from '../reference/entities/customer';
import { InvoiceRowType, type Invoice } from './entities/invoice';
import { isReverseCharge, partyCountry } from './vat-rules';

/** A seller or buyer as an invoice names it: the same shape for the tenant and a customer. */
export interface InvoiceParty {
  name: string;
  street: string | null;
  postalCode: string | null;
  city: string | null;
  /** ISO 3166-1 alpha-2, or null when the record holds no usable code. */
  country: string | null;
  vatNumber: string | null;
  email: string | null;
}

const text = (value: string | null | undefined): string | null => value?.trim() || null;

/** The tenant as the seller, from its billing details (its address holds street and house number apart). */
export function sellerParty(tenant: Pick<Tenant, 'name' | 'billingInfo'>): InvoiceParty {
  const billing = tenant.billingInfo;
  const address = billing?.address;
  const vatNumber = text(billing?.vatNumber);
  return {
    name: tenant.name,
    street: text([address?.street, address?.houseNumber].filter(Boolean).join(' ')),
    postalCode: text(address?.postalCode),
    city: text(address?.city),
    country: partyCountry({ country: address?.country, vatNumber }),
    vatNumber,
    email: text(billing?.email),
  };
}

/** A customer as the buyer. */
export function buyerParty(customer: Customer): InvoiceParty {
  const vatNumber = text(customer.vatNumber);
  return {
    name: customer.name,
    street: text(customer.street),
    postalCode: text(customer.postalCode),
    city: text(customer.city),
    country: partyCountry({ country: customer.country, vatNumber }),
    vatNumber,
    email: text(customer.email),
  };
}

/**
 * Whether a stored invoice is reverse-charged: the rule applies to its parties and its rows were
 * computed that way (no VAT on any row). A tenant or customer changed after the invoice was saved
 * does not make an invoice that charged VAT claim the reverse charge.
 */
export function isReverseCharged(
  invoice: Pick<Invoice, 'rows'>,
  seller: InvoiceParty,
  buyer: InvoiceParty,
): boolean {
  return (
    isReverseCharge(seller, buyer) &&
    invoice.rows.every((r) => r.type === InvoiceRowType.TEXT || (r.taxRate ?? 0) === 0)
  );
}
