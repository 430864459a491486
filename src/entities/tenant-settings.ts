import { Field, Float, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { TENANT_SCOPE_NAMES, type TenantScopeName } from '../permissions/modules';
import { Address } from './shared';

/**
 * The tenant's settings: the shapes stored in its JSON columns (billing, functional areas,
 * shop and tenant-wide settings), and how a stored value is completed.
 */

export enum BillingType {
  COMPANY = 'COMPANY',
  INDIVIDUAL = 'INDIVIDUAL',
}
registerEnumType(BillingType, {
  name: 'BillingType',
  description: 'Who is billed.',
  valuesConfig: {
    COMPANY: { description: 'Billed as a company.' },
    INDIVIDUAL: { description: 'Billed as a private person.' },
  },
});

export enum ShopPaymentMethod {
  INVOICE = 'INVOICE',
  CREDIT_CARD = 'CREDIT_CARD',
  BANK_TRANSFER = 'BANK_TRANSFER',
  IDEAL = 'IDEAL',
  PAYPAL = 'PAYPAL',
}
registerEnumType(ShopPaymentMethod, {
  name: 'ShopPaymentMethod',
  description: 'A way shop customers may pay.',
  valuesConfig: {
    INVOICE: { description: 'Pay by invoice.' },
    CREDIT_CARD: { description: 'Pay by credit card.' },
    BANK_TRANSFER: { description: 'Pay by bank transfer.' },
    IDEAL: { description: 'Pay with iDEAL.' },
    PAYPAL: { description: 'Pay with PayPal.' },
  },
});

@ObjectType('BillingContact', { description: 'A person to contact about billing.' })
@InputType('BillingContactInput', { description: 'A person to contact about billing, as sent.' })
export class BillingContact {
  @Field(() => String, { nullable: true, description: "The contact's department." }) department?: string;
  @Field(() => String, { nullable: true, description: "The contact's e-mail address." }) email?: string;
  @Field(() => String, { nullable: true, description: "The contact's first name." }) firstName?: string;
  @Field(() => String, { nullable: true, description: 'Optional id of the contact, kept as sent.' })
  id?: string;
  @Field(() => String, { nullable: true, description: "The contact's last name." }) lastName?: string;
  @Field(() => String, { nullable: true, description: "The contact's phone number." }) phone?: string;
}

@ObjectType('BillingInfo', { description: 'How and where the tenant is billed.' })
@InputType('BillingInfoInput', { description: 'How the tenant is billed, as sent.' })
export class BillingInfo {
  @Field(() => Address, { nullable: true, description: 'Billing address.' }) address?: Address;
  @Field(() => String, { nullable: true, description: 'Name of the bank.' }) bank?: string;
  @Field(() => String, { nullable: true, description: 'BIC (SWIFT code) of the bank.' }) bic?: string;
  @Field(() => String, { nullable: true, description: 'Chamber of commerce registration number.' })
  cocNumber?: string;
  @Field(() => String, { nullable: true, description: 'E-mail address invoices go to.' }) email?: string;
  @Field(() => String, { nullable: true, description: 'IBAN of the account.' }) iban?: string;
  @Field(() => String, { nullable: true, description: 'Billing phone number.' }) phone?: string;
  @Field(() => String, { nullable: true, description: 'VAT identification number.' }) vatNumber?: string;
  @Field(() => BillingType, { nullable: true, description: 'Billed as a company or a private person.' })
  type?: BillingType;
  @Field(() => [BillingContact], { nullable: true, description: 'People to contact about billing.' })
  contacts?: BillingContact[];
}

export { TENANT_SCOPE_NAMES, type TenantScopeName };

@ObjectType('TenantScopes', { description: 'Which functional areas the tenant uses.' })
@InputType('TenantScopesInput', {
  description: 'Which modules the tenant uses, as sent; absent modules stay as they are.',
})
export class TenantScopes implements Partial<Record<TenantScopeName, boolean>> {
  @Field(() => Boolean, { nullable: true, description: 'The asset-management module is on.' })
  assetManagement?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'The calendar module is on.' }) calendar?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'The clients module is on.' }) clients?: boolean;
  @Field(() => Boolean, {
    nullable: true,
    description: 'The communications module (inbox, mails, notifications) is on.',
  })
  communications?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'The concepts module is on.' }) concepts?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'The configurator module is on.' })
  configurator?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'The CRM module is on.' }) crm?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'The environment module is on.' })
  environment?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'The finance module is on.' }) finance?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'The HR module is on.' }) hr?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'The inventory module is on.' }) inventory?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'The production module is on.' }) production?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'The products module is on.' }) products?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'The projects module is on.' }) projects?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'The reporting module is on.' }) reporting?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'The subsidiaries module is on.' })
  subsidiaries?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'The suppliers module is on.' }) suppliers?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'The support module is on.' }) support?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'The tasks module is on.' }) tasks?: boolean;
}

@ObjectType('ShopSettings', { description: 'The web shop of the tenant.' })
@InputType('ShopSettingsInput', { description: "Settings of the tenant's web shop, as sent." })
export class ShopSettings {
  @Field(() => String, { nullable: true, description: "Id of the shop's banner image." })
  bannerImageId?: string;
  @Field(() => String, { nullable: true, description: "Subtitle shown on the shop's banner." })
  bannerSubtitle?: string;
  @Field(() => String, { nullable: true, description: "Title shown on the shop's banner." })
  bannerTitle?: string;
  @Field(() => String, { nullable: true, description: "The shop's return policy text." })
  returnPolicy?: string;
  @Field(() => String, { nullable: true, description: 'Description of the shop.' }) shopDescription?: string;
  @Field(() => String, { nullable: true, description: "The shop's terms and conditions text." })
  termsAndConditions?: string;
  @Field(() => [ShopPaymentMethod], { nullable: true, description: 'Payment methods the shop offers.' })
  enabledPaymentMethods?: ShopPaymentMethod[];
  @Field(() => Float, { nullable: true, description: 'Order amount from which shipping is free.' })
  freeShippingThreshold?: number;
  @Field(() => Float, {
    nullable: true,
    description: 'Shipping cost charged below the free-shipping threshold.',
  })
  shippingFlatRate?: number;
}

@ObjectType('TenantSettings', { description: 'Defaults and preferences of the tenant.' })
@InputType('TenantSettingsInput', { description: 'Tenant-wide settings, as sent.' })
export class TenantSettings {
  @Field(() => String, {
    nullable: true,
    description: "Accent colour of the tenant's branding (CSS colour).",
  })
  accentColor?: string;
  @Field(() => String, { nullable: true, description: 'Short code of the tenant.' }) code?: string;
  @Field(() => String, { nullable: true, description: 'Country used where a record gives none.' })
  defaultCountry?: string;
  @Field(() => String, {
    nullable: true,
    description:
      'Currency (ISO 4217 code) a sales or purchase invoice gets when it names none (EUR when unset).',
  })
  defaultCurrency?: string;
  @Field(() => String, {
    nullable: true,
    description:
      "Language used where a user gives none; also the language of the invoice and reminder e-mails' built-in texts (en, nl; others get en).",
  })
  defaultLanguage?: string;
  @Field(() => Int, {
    nullable: true,
    description: 'Days to pay a sales invoice that gives no paymentTermDays (30 when unset), 0 to 3650.',
  })
  defaultPaymentTermDays?: number;
  @Field(() => String, { nullable: true, description: 'Visibility new products get.' })
  defaultProductVisibility?: string;
  @Field(() => String, {
    nullable: true,
    description:
      'Time zone used where a record gives none, and the days and weeks e-mail digests cover (IANA name).',
  })
  defaultTimezone?: string;
  @Field(() => Float, {
    nullable: true,
    description:
      'VAT percentage (0 to 100) a sales or purchase invoice row gets when it names no taxRate (21 when unset).',
  })
  defaultVat?: number;
  @Field(() => String, {
    nullable: true,
    description:
      'E-invoice every invoice e-mail (send, automatic send, reminder) carries besides the PDF: ubl (Peppol BIS 3.0) or cii; null (default) sends the PDF alone. When set, seller or buyer details the format needs make a send a 409 naming them.',
  })
  eInvoiceFormat?: string | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'Whether exchange rates are synchronised automatically.',
  })
  exchangeRateSyncEnabled?: boolean;
  @Field(() => [Int], {
    nullable: true,
    description:
      'Days after its due date on which an unpaid sales invoice gets a payment reminder, each once (default [7]; [] sends none); 1 to 3650, at most 10.',
  })
  reminderDays?: number[];
  @Field(() => Boolean, { nullable: true, description: "Whether the tenant's web shop is open." })
  shopEnabled?: boolean;
  @Field(() => ShopSettings, { nullable: true, description: 'Settings of the web shop.' })
  shopSettings?: ShopSettings;
}

/** A new tenant uses every functional area until its administrator turns some off. */
export function defaultScopes(): TenantScopes {
  return Object.fromEntries(TENANT_SCOPE_NAMES.map((n) => [n, true])) as TenantScopes;
}

/**
 * The JSON shapes below are stored complete (every key, null when unknown; lists as []), so a
 * read shows every documented field whatever a client sent.
 */
export function completeScopes(input: Partial<TenantScopes> | null | undefined, base: TenantScopes) {
  return Object.fromEntries(
    TENANT_SCOPE_NAMES.map((n) => [n, input?.[n] ?? base[n] ?? false]),
  ) as TenantScopes;
}

export function completeShopSettings(s: ShopSettings | null | undefined): ShopSettings {
  return {
    bannerImageId: s?.bannerImageId ?? undefined,
    bannerSubtitle: s?.bannerSubtitle ?? undefined,
    bannerTitle: s?.bannerTitle ?? undefined,
    returnPolicy: s?.returnPolicy ?? undefined,
    shopDescription: s?.shopDescription ?? undefined,
    termsAndConditions: s?.termsAndConditions ?? undefined,
    enabledPaymentMethods: [...new Set(s?.enabledPaymentMethods ?? [])],
    freeShippingThreshold: s?.freeShippingThreshold ?? undefined,
    shippingFlatRate: s?.shippingFlatRate ?? undefined,
  };
}

export function completeSettings(s: TenantSettings | null | undefined): TenantSettings {
  return {
    accentColor: s?.accentColor ?? undefined,
    code: s?.code ?? undefined,
    defaultCountry: s?.defaultCountry ?? undefined,
    defaultCurrency: s?.defaultCurrency ?? undefined,
    defaultLanguage: s?.defaultLanguage ?? undefined,
    defaultPaymentTermDays: s?.defaultPaymentTermDays ?? undefined,
    defaultProductVisibility: s?.defaultProductVisibility ?? undefined,
    defaultTimezone: s?.defaultTimezone ?? undefined,
    defaultVat: s?.defaultVat ?? undefined,
    eInvoiceFormat: s?.eInvoiceFormat ?? undefined,
    exchangeRateSyncEnabled: s?.exchangeRateSyncEnabled ?? false,
    reminderDays: s?.reminderDays ? [...new Set(s.reminderDays)].sort((a, b) => a - b) : undefined,
    shopEnabled: s?.shopEnabled ?? false,
    shopSettings: completeShopSettings(s?.shopSettings),
  };
}

export function completeBillingInfo(b: BillingInfo | null | undefined): BillingInfo | null {
  if (!b) return null;
  return { ...b, contacts: b.contacts ?? [] };
}
