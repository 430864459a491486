import { randomUUID } from 'node:crypto';
import { Entity, Enum, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Float, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from '../graphql/date-time';
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
});

export enum BillingType {
  COMPANY = 'COMPANY',
  INDIVIDUAL = 'INDIVIDUAL',
}
registerEnumType(BillingType, { name: 'BillingType', description: 'Who is billed.' });

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
});

@ObjectType('BillingContact', { description: 'A person to contact about billing.' })
@InputType('BillingContactInput')
export class BillingContact {
  @Field(() => String, { nullable: true }) department?: string;
  @Field(() => String, { nullable: true }) email?: string;
  @Field(() => String, { nullable: true }) firstName?: string;
  @Field(() => String, { nullable: true }) id?: string;
  @Field(() => String, { nullable: true }) lastName?: string;
  @Field(() => String, { nullable: true }) phone?: string;
}

@ObjectType('BillingInfo', { description: 'How and where the tenant is billed.' })
@InputType('BillingInfoInput')
export class BillingInfo {
  @Field(() => Address, { nullable: true }) address?: Address;
  @Field(() => String, { nullable: true }) bank?: string;
  @Field(() => String, { nullable: true }) bic?: string;
  @Field(() => String, { nullable: true }) cocNumber?: string;
  @Field(() => String, { nullable: true }) email?: string;
  @Field(() => String, { nullable: true }) iban?: string;
  @Field(() => String, { nullable: true }) phone?: string;
  @Field(() => String, { nullable: true }) vatNumber?: string;
  @Field(() => BillingType, { nullable: true }) type?: BillingType;
  @Field(() => [BillingContact], { nullable: true }) contacts?: BillingContact[];
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
@InputType('TenantScopesInput')
export class TenantScopes implements Partial<Record<TenantScopeName, boolean>> {
  @Field(() => Boolean, { nullable: true }) assetManagement?: boolean;
  @Field(() => Boolean, { nullable: true }) calendar?: boolean;
  @Field(() => Boolean, { nullable: true }) clients?: boolean;
  @Field(() => Boolean, { nullable: true }) communications?: boolean;
  @Field(() => Boolean, { nullable: true }) concepts?: boolean;
  @Field(() => Boolean, { nullable: true }) configurator?: boolean;
  @Field(() => Boolean, { nullable: true }) crm?: boolean;
  @Field(() => Boolean, { nullable: true }) environment?: boolean;
  @Field(() => Boolean, { nullable: true }) finance?: boolean;
  @Field(() => Boolean, { nullable: true }) hr?: boolean;
  @Field(() => Boolean, { nullable: true }) inventory?: boolean;
  @Field(() => Boolean, { nullable: true }) production?: boolean;
  @Field(() => Boolean, { nullable: true }) products?: boolean;
  @Field(() => Boolean, { nullable: true }) projects?: boolean;
  @Field(() => Boolean, { nullable: true }) reporting?: boolean;
  @Field(() => Boolean, { nullable: true }) subsidiaries?: boolean;
  @Field(() => Boolean, { nullable: true }) suppliers?: boolean;
  @Field(() => Boolean, { nullable: true }) support?: boolean;
  @Field(() => Boolean, { nullable: true }) tasks?: boolean;
}

@ObjectType('ShopSettings', { description: 'The web shop of the tenant.' })
@InputType('ShopSettingsInput')
export class ShopSettings {
  @Field(() => String, { nullable: true }) bannerImageId?: string;
  @Field(() => String, { nullable: true }) bannerSubtitle?: string;
  @Field(() => String, { nullable: true }) bannerTitle?: string;
  @Field(() => String, { nullable: true }) returnPolicy?: string;
  @Field(() => String, { nullable: true }) shopDescription?: string;
  @Field(() => String, { nullable: true }) termsAndConditions?: string;
  @Field(() => [ShopPaymentMethod], { nullable: true }) enabledPaymentMethods?: ShopPaymentMethod[];
  @Field(() => Float, { nullable: true }) freeShippingThreshold?: number;
  @Field(() => Float, { nullable: true }) shippingFlatRate?: number;
}

@ObjectType('TenantSettings', { description: 'Defaults and preferences of the tenant.' })
@InputType('TenantSettingsInput')
export class TenantSettings {
  @Field(() => String, { nullable: true }) accentColor?: string;
  @Field(() => String, { nullable: true }) code?: string;
  @Field(() => String, { nullable: true }) defaultCountry?: string;
  @Field(() => String, { nullable: true }) defaultCurrency?: string;
  @Field(() => String, { nullable: true }) defaultLanguage?: string;
  @Field(() => String, { nullable: true }) defaultProductVisibility?: string;
  @Field(() => String, { nullable: true }) defaultTimezone?: string;
  @Field(() => Float, { nullable: true }) defaultVat?: number;
  @Field(() => Boolean, { nullable: true }) exchangeRateSyncEnabled?: boolean;
  @Field(() => Boolean, { nullable: true }) shopEnabled?: boolean;
  @Field(() => ShopSettings, { nullable: true }) shopSettings?: ShopSettings;
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
  @Field(() => ID)
  id: string = randomUUID();

  @Property({ type: 'text' })
  @Field(() => String)
  name!: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  domain?: string;

  @Property({ type: 'boolean' })
  @Field(() => Boolean)
  active: boolean = true;

  /** E-mail of the person responsible for the tenant (its first administrator). */
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  owner?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  logoUrl?: string;

  @Property({ type: 'json', nullable: true })
  @Field(() => ImageRef, { nullable: true })
  logo?: ImageRef;

  @Property({ type: 'json', nullable: true })
  @Field(() => ImageRef, { nullable: true })
  lightThemeLogo?: ImageRef;

  @Enum({ items: () => TenantSubscription })
  @Field(() => TenantSubscription)
  subscription: TenantSubscription = TenantSubscription.TRIAL;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true })
  subscriptionExpires?: Date;

  @Property({ type: 'json', nullable: true })
  @Field(() => BillingInfo, { nullable: true })
  billingInfo?: BillingInfo | null;

  @Property({ type: 'json' })
  @Field(() => TenantScopes)
  scopes: TenantScopes = defaultScopes();

  @Property({ type: 'json' })
  @Field(() => TenantSettings)
  settings: TenantSettings = completeSettings(undefined);

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true })
  created?: Date;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  createdBy?: string;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true })
  updated?: Date;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  updatedBy?: string;

  /**
   * The domain read as a mobile-app package name (`app.acme-corp.com` -> `com.acme_corp.app`),
   * which is how the tenant's branded apps are identified.
   */
  @Field(() => String, { nullable: true })
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
