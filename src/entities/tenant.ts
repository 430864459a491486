import { randomUUID } from 'node:crypto';
import { Entity, Enum, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Float, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { AUDIT_DOCS } from '../schema/descriptions';
import { DateTimeISOResolver } from 'graphql-scalars';
import { Address, ImageRef } from './shared';

export enum TenantSubscription {
  TRIAL = 'TRIAL',
  ACTIVE = 'ACTIVE',
  PAST_DUE = 'PAST_DUE',
  CANCELLED = 'CANCELLED',
}
registerEnumType(TenantSubscription, {
  name: 'TenantSubscription',
  description: 'Where the tenant stands with its subscription.',
  valuesConfig: {
    TRIAL: { description: 'On a trial.' },
    ACTIVE: { description: 'Paid and current.' },
    PAST_DUE: { description: 'Payment is overdue.' },
    CANCELLED: { description: 'The subscription has ended.' },
  },
});

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
  @Field(() => String, { description: "The contact's department.", nullable: true }) department?: string;
  @Field(() => String, { description: "The contact's e-mail address.", nullable: true }) email?: string;
  @Field(() => String, { description: "The contact's first name.", nullable: true }) firstName?: string;
  @Field(() => String, { description: 'Optional id of the contact, kept as sent.', nullable: true })
  id?: string;
  @Field(() => String, { description: "The contact's last name.", nullable: true }) lastName?: string;
  @Field(() => String, { description: "The contact's phone number.", nullable: true }) phone?: string;
}

@ObjectType('BillingInfo', { description: 'How and where the tenant is billed.' })
@InputType('BillingInfoInput', { description: 'How the tenant is billed, as sent.' })
export class BillingInfo {
  @Field(() => Address, { description: 'Billing address.', nullable: true }) address?: Address;
  @Field(() => String, { description: 'Name of the bank.', nullable: true }) bank?: string;
  @Field(() => String, { description: 'BIC (SWIFT code) of the bank.', nullable: true }) bic?: string;
  @Field(() => String, { description: 'Chamber of commerce registration number.', nullable: true })
  cocNumber?: string;
  @Field(() => String, { description: 'E-mail address invoices go to.', nullable: true }) email?: string;
  @Field(() => String, { description: 'IBAN of the account.', nullable: true }) iban?: string;
  @Field(() => String, { description: 'Billing phone number.', nullable: true }) phone?: string;
  @Field(() => String, { description: 'VAT identification number.', nullable: true }) vatNumber?: string;
  @Field(() => BillingType, { description: 'Billed as a company or a private person.', nullable: true })
  type?: BillingType;
  @Field(() => [BillingContact], { description: 'People to contact about billing.', nullable: true })
  contacts?: BillingContact[];
}

/** The functional areas; a front end shows the areas that are on. */
export const TENANT_SCOPE_NAMES = [
  'assetManagement',
  'calendar',
  'clients',
  'communications',
  'concepts',
  'configurator',
  'crm',
  'environment',
  'finance',
  'hr',
  'inventory',
  'production',
  'products',
  'projects',
  'reporting',
  'subsidiaries',
  'suppliers',
  'support',
  'tasks',
] as const;
export type TenantScopeName = (typeof TENANT_SCOPE_NAMES)[number];

@ObjectType('TenantScopes', { description: 'Which functional areas the tenant uses.' })
@InputType('TenantScopesInput', {
  description: 'Which modules the tenant uses, as sent; absent modules stay as they are.',
})
export class TenantScopes implements Partial<Record<TenantScopeName, boolean>> {
  @Field(() => Boolean, { description: 'The asset-management module is on.', nullable: true })
  assetManagement?: boolean;
  @Field(() => Boolean, { description: 'The calendar module is on.', nullable: true }) calendar?: boolean;
  @Field(() => Boolean, { description: 'The clients module is on.', nullable: true }) clients?: boolean;
  @Field(() => Boolean, {
    description: 'The communications module (inbox, mails, notifications) is on.',
    nullable: true,
  })
  communications?: boolean;
  @Field(() => Boolean, { description: 'The concepts module is on.', nullable: true }) concepts?: boolean;
  @Field(() => Boolean, { description: 'The configurator module is on.', nullable: true })
  configurator?: boolean;
  @Field(() => Boolean, { description: 'The CRM module is on.', nullable: true }) crm?: boolean;
  @Field(() => Boolean, { description: 'The environment module is on.', nullable: true })
  environment?: boolean;
  @Field(() => Boolean, { description: 'The finance module is on.', nullable: true }) finance?: boolean;
  @Field(() => Boolean, { description: 'The HR module is on.', nullable: true }) hr?: boolean;
  @Field(() => Boolean, { description: 'The inventory module is on.', nullable: true }) inventory?: boolean;
  @Field(() => Boolean, { description: 'The production module is on.', nullable: true }) production?: boolean;
  @Field(() => Boolean, { description: 'The products module is on.', nullable: true }) products?: boolean;
  @Field(() => Boolean, { description: 'The projects module is on.', nullable: true }) projects?: boolean;
  @Field(() => Boolean, { description: 'The reporting module is on.', nullable: true }) reporting?: boolean;
  @Field(() => Boolean, { description: 'The subsidiaries module is on.', nullable: true })
  subsidiaries?: boolean;
  @Field(() => Boolean, { description: 'The suppliers module is on.', nullable: true }) suppliers?: boolean;
  @Field(() => Boolean, { description: 'The support module is on.', nullable: true }) support?: boolean;
  @Field(() => Boolean, { description: 'The tasks module is on.', nullable: true }) tasks?: boolean;
}

@ObjectType('ShopSettings', { description: 'The web shop of the tenant.' })
@InputType('ShopSettingsInput', { description: "Settings of the tenant's web shop, as sent." })
export class ShopSettings {
  @Field(() => String, { description: "Id of the shop's banner image.", nullable: true })
  bannerImageId?: string;
  @Field(() => String, { description: "Subtitle shown on the shop's banner.", nullable: true })
  bannerSubtitle?: string;
  @Field(() => String, { description: "Title shown on the shop's banner.", nullable: true })
  bannerTitle?: string;
  @Field(() => String, { description: "The shop's return policy text.", nullable: true })
  returnPolicy?: string;
  @Field(() => String, { description: 'Description of the shop.', nullable: true }) shopDescription?: string;
  @Field(() => String, { description: "The shop's terms and conditions text.", nullable: true })
  termsAndConditions?: string;
  @Field(() => [ShopPaymentMethod], { description: 'Payment methods the shop offers.', nullable: true })
  enabledPaymentMethods?: ShopPaymentMethod[];
  @Field(() => Float, { description: 'Order amount from which shipping is free.', nullable: true })
  freeShippingThreshold?: number;
  @Field(() => Float, {
    description: 'Shipping cost charged below the free-shipping threshold.',
    nullable: true,
  })
  shippingFlatRate?: number;
}

@ObjectType('TenantSettings', { description: 'Defaults and preferences of the tenant.' })
@InputType('TenantSettingsInput', { description: 'Tenant-wide settings, as sent.' })
export class TenantSettings {
  @Field(() => String, {
    description: "Accent colour of the tenant's branding (CSS colour).",
    nullable: true,
  })
  accentColor?: string;
  @Field(() => String, { description: 'Short code of the tenant.', nullable: true }) code?: string;
  @Field(() => String, { description: 'Country used where a record gives none.', nullable: true })
  defaultCountry?: string;
  @Field(() => String, {
    description: 'Currency used where a record gives none (ISO 4217 code).',
    nullable: true,
  })
  defaultCurrency?: string;
  @Field(() => String, { description: 'Language used where a user gives none.', nullable: true })
  defaultLanguage?: string;
  @Field(() => String, { description: 'Visibility new products get.', nullable: true })
  defaultProductVisibility?: string;
  @Field(() => String, {
    description: 'Time zone used where a record gives none (IANA name).',
    nullable: true,
  })
  defaultTimezone?: string;
  @Field(() => Float, { description: 'VAT percentage used where a record gives none.', nullable: true })
  defaultVat?: number;
  @Field(() => Boolean, {
    description: 'Whether exchange rates are synchronised automatically.',
    nullable: true,
  })
  exchangeRateSyncEnabled?: boolean;
  @Field(() => Boolean, { description: "Whether the tenant's web shop is open.", nullable: true })
  shopEnabled?: boolean;
  @Field(() => ShopSettings, { description: 'Settings of the web shop.', nullable: true })
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
    defaultProductVisibility: s?.defaultProductVisibility ?? undefined,
    defaultTimezone: s?.defaultTimezone ?? undefined,
    defaultVat: s?.defaultVat ?? undefined,
    exchangeRateSyncEnabled: s?.exchangeRateSyncEnabled ?? false,
    shopEnabled: s?.shopEnabled ?? false,
    shopSettings: completeShopSettings(s?.shopSettings),
  };
}

export function completeBillingInfo(b: BillingInfo | null | undefined): BillingInfo | null {
  if (!b) return null;
  return { ...b, contacts: b.contacts ?? [] };
}

/**
 * A customer organisation. Its id is the tenant id every other record carries, so its own
 * table is keyed by that id alone.
 */
@Entity({ tableName: 'tenant' })
@ObjectType({ description: 'A tenant: one customer organisation.' })
export class Tenant {
  [OptionalProps]?: 'active' | 'subscription' | 'scopes' | 'settings' | 'packageNameFromDomain';

  @PrimaryKey({ type: 'uuid' })
  @Field(() => ID, {
    description: 'Id of the tenant (a UUID); every record of the tenant carries it as `tenantId`.',
  })
  id: string = randomUUID();

  @Property({ type: 'text' })
  @Field(() => String, { description: 'Name of the organisation.' })
  name!: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { description: "The tenant's internet domain.", nullable: true })
  domain?: string;

  @Property({ type: 'boolean' })
  @Field(() => Boolean, { description: 'False for a deactivated tenant, whose users are refused (401).' })
  active: boolean = true;

  /** E-mail of the person responsible for the tenant (its first administrator). */
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { description: "E-mail of the tenant's owner.", nullable: true })
  owner?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { description: "Address of the tenant's logo.", nullable: true })
  logoUrl?: string;

  @Property({ type: 'json', nullable: true })
  @Field(() => ImageRef, { description: "The tenant's logo.", nullable: true })
  logo?: ImageRef;

  @Property({ type: 'json', nullable: true })
  @Field(() => ImageRef, { description: "The tenant's logo for light themes.", nullable: true })
  lightThemeLogo?: ImageRef;

  @Enum({ items: () => TenantSubscription })
  @Field(() => TenantSubscription, { description: "State of the tenant's subscription." })
  subscription: TenantSubscription = TenantSubscription.TRIAL;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { description: 'When the subscription ends.', nullable: true })
  subscriptionExpires?: Date;

  @Property({ type: 'json', nullable: true })
  @Field(() => BillingInfo, { description: 'How the tenant is billed.', nullable: true })
  billingInfo?: BillingInfo | null;

  @Property({ type: 'json' })
  @Field(() => TenantScopes, { description: 'Which modules the tenant uses.' })
  scopes: TenantScopes = defaultScopes();

  @Property({ type: 'json' })
  @Field(() => TenantSettings, { description: 'Tenant-wide settings.' })
  settings: TenantSettings = completeSettings(undefined);

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { description: AUDIT_DOCS.created, nullable: true })
  created?: Date;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { description: AUDIT_DOCS.createdBy, nullable: true })
  createdBy?: string;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { description: AUDIT_DOCS.updated, nullable: true })
  updated?: Date;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { description: AUDIT_DOCS.updatedBy, nullable: true })
  updatedBy?: string;

  /**
   * The domain read as a mobile-app package name (`app.acme-corp.com` -> `com.acme_corp.app`),
   * which is how the tenant's branded apps are identified.
   */
  @Field(() => String, {
    description:
      "The domain's labels reversed and joined with dots (an app package name), which identifies the tenant's branded apps; null without a domain.",
    nullable: true,
  })
  get packageNameFromDomain(): string | null {
    const labels = (this.domain ?? '')
      .trim()
      .toLowerCase()
      .split('.')
      .map((l) => l.replace(/[^a-z0-9_]/g, '_'))
      .filter((l) => l.length > 0);
    return labels.length ? labels.reverse().join('.') : null;
  }
}
