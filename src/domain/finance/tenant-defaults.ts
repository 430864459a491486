import type { EntityManager } from '@mikro-orm/core';
import { badRequest } from '../../errors';
import { Tenant, type TenantSettings } from '../../entities/tenant';
import { DEFAULT_CURRENCY } from './common';
import { DEFAULT_TAX_RATE } from './money';

/**
 * What a tenant's settings decide about its invoices where a record says nothing: the currency,
 * the VAT rate of a row, the payment term, the reminder schedule and the language of the
 * built-in e-mail texts. Read once per invoice written; the tenant row is in the unit of work
 * already (the PDF and the sequence read it too).
 */
export interface FinanceDefaults {
  currency: string;
  vat: number;
  paymentTermDays: number;
  /** Days after the due date a reminder goes out, ascending. */
  reminderDays: number[];
  language: string;
  timeZone: string;
  /** The e-invoice XML an invoice e-mail carries besides the PDF; null for the PDF alone. */
  eInvoiceFormat: EInvoiceMailFormat | null;
}

export const E_INVOICE_MAIL_FORMATS = ['ubl', 'cii'] as const;
export type EInvoiceMailFormat = (typeof E_INVOICE_MAIL_FORMATS)[number];
const isMailFormat = (f: unknown): f is EInvoiceMailFormat =>
  (E_INVOICE_MAIL_FORMATS as readonly unknown[]).includes(f);

export const DEFAULT_PAYMENT_TERM_DAYS = 30;
export const DEFAULT_REMINDER_DAYS: readonly number[] = [7];

export function financeDefaults(settings: TenantSettings | null | undefined): FinanceDefaults {
  return {
    currency: (settings?.defaultCurrency ?? DEFAULT_CURRENCY).toUpperCase(),
    vat: settings?.defaultVat ?? DEFAULT_TAX_RATE,
    paymentTermDays: settings?.defaultPaymentTermDays ?? DEFAULT_PAYMENT_TERM_DAYS,
    reminderDays: [...(settings?.reminderDays ?? DEFAULT_REMINDER_DAYS)].sort((a, b) => a - b),
    language: (settings?.defaultLanguage ?? 'en').toLowerCase(),
    timeZone: settings?.defaultTimezone ?? 'UTC',
    eInvoiceFormat: isMailFormat(settings?.eInvoiceFormat) ? settings.eInvoiceFormat : null,
  };
}

export async function tenantFinanceDefaults(em: EntityManager, tenantId: string): Promise<FinanceDefaults> {
  const tenant = await em.findOne(Tenant, { id: tenantId });
  return financeDefaults(tenant?.settings);
}

const isWhole = (n: unknown, min: number, max: number) =>
  typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max;

/** Refuses finance settings the invoices could not use, naming the field. */
export function checkFinanceSettings(settings: TenantSettings | null | undefined): void {
  if (!settings) return;
  const { defaultVat, defaultPaymentTermDays, reminderDays, defaultCurrency, eInvoiceFormat } = settings;
  if (defaultVat != null && !(defaultVat >= 0 && defaultVat <= 100))
    throw badRequest('settings.defaultVat: must be between 0 and 100');
  if (defaultPaymentTermDays != null && !isWhole(defaultPaymentTermDays, 0, 3650))
    throw badRequest('settings.defaultPaymentTermDays: must be a whole number of days from 0 to 3650');
  if (defaultCurrency != null && !/^[A-Za-z]{3}$/.test(defaultCurrency))
    throw badRequest('settings.defaultCurrency: must be a three-letter ISO 4217 code');
  if (reminderDays != null) {
    if (reminderDays.length > 10) throw badRequest('settings.reminderDays: at most 10 days');
    if (!reminderDays.every((d) => isWhole(d, 1, 3650)))
      throw badRequest('settings.reminderDays: each must be a whole number of days from 1 to 3650');
  }
  if (eInvoiceFormat != null && !isMailFormat(eInvoiceFormat))
    throw badRequest(`settings.eInvoiceFormat: must be one of ${E_INVOICE_MAIL_FORMATS.join(', ')}, or null`);
}
