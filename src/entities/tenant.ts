import { randomUUID } from 'node:crypto';
import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { ImageRef } from './shared';
import { BooleanColumn, DateTimeColumn, EnumColumn, JsonColumn, TextColumn } from './columns';
import { AuditColumn } from './tenant-scoped';
import {
  BillingInfo,
  TenantScopes,
  TenantSettings,
  completeSettings,
  defaultScopes,
} from './tenant-settings';

// The settings shapes are imported from here by existing code.
export * from './tenant-settings';

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

/** What Tenant fields mean, shared with the inputs that set them. */
export const TENANT_DOCS = {
  name: 'Name of the organisation.',
  domain: "The tenant's internet domain.",
  owner: "E-mail of the tenant's owner.",
  logoUrl: "Address of the tenant's logo.",
  logo: "The tenant's logo.",
  lightThemeLogo: "The tenant's logo for light themes.",
  subscription: "State of the tenant's subscription.",
  subscriptionExpires: 'When the subscription ends.',
  scopes: 'Which modules the tenant uses.',
} as const;

/**
 * A customer organisation. Its id is the tenant id every other record carries, so its own
 * table is keyed by that id alone.
 */
@Entity({ tableName: 'tenant' })
@ObjectType({ description: 'A tenant: one customer organisation.' })
export class Tenant {
  [OptionalProps]?:
    'active' | 'subscription' | 'scopes' | 'settings' | 'packageNameFromDomain' | 'deleteAfter';

  @PrimaryKey({ type: 'uuid' })
  @Field(() => ID, {
    description: 'Id of the tenant (a UUID); every record of the tenant carries it as `tenantId`.',
  })
  id: string = randomUUID();

  @TextColumn({ nullable: false, description: TENANT_DOCS.name })
  name!: string;

  @TextColumn({ description: TENANT_DOCS.domain })
  domain?: string | null;

  @BooleanColumn({
    nullable: false,
    description: 'False for a deactivated tenant, whose users are refused (401).',
  })
  active: boolean = true;

  /**
   * When a deleted tenant's rows and files are removed (its grace period ends); null for a tenant
   * nobody deleted. An operator's matter (the CLI), not part of the API.
   */
  @Property({ type: 'timestamptz', nullable: true })
  deleteAfter?: Date | null;

  /** E-mail of the person responsible for the tenant (its first administrator). */
  @TextColumn({ description: TENANT_DOCS.owner })
  owner?: string | null;

  @TextColumn({ description: TENANT_DOCS.logoUrl })
  logoUrl?: string | null;

  @JsonColumn(() => ImageRef, { description: TENANT_DOCS.logo })
  logo?: ImageRef | null;

  @JsonColumn(() => ImageRef, { description: TENANT_DOCS.lightThemeLogo })
  lightThemeLogo?: ImageRef | null;

  @EnumColumn(() => TenantSubscription, { nullable: false, description: TENANT_DOCS.subscription })
  subscription: TenantSubscription = TenantSubscription.TRIAL;

  @DateTimeColumn({ description: TENANT_DOCS.subscriptionExpires })
  subscriptionExpires?: Date | null;

  @JsonColumn(() => BillingInfo, { description: 'How the tenant is billed.' })
  billingInfo?: BillingInfo | null;

  @JsonColumn(() => TenantScopes, { nullable: false, description: TENANT_DOCS.scopes })
  scopes: TenantScopes = defaultScopes();

  @JsonColumn(() => TenantSettings, { nullable: false, description: 'Tenant-wide settings.' })
  settings: TenantSettings = completeSettings(undefined);

  // The audit columns are named here rather than inherited, their declarations shared with
  // TenantScoped. They were published after `settings`, and type-graphql puts every inherited
  // field (and every field of an implemented interface, which would also change the SDL) before
  // the class's own, with no option to order fields. The order would hold only with the audit
  // columns in a class generated between the tenant's columns and the tenant (a mixin); declared
  // once, that mixin would also sit under TenantScoped, and MikroORM keys a base class's metadata
  // by its name and file, so the mixin's two classes would share one (the tenant's would inherit
  // TenantScoped's keys). Reordering the built schema's fields would rely on graphql-js internals.
  // The copy check passes over these four lines for that reason.
  // jscpd:ignore-start
  @AuditColumn.created() created?: Date | null;
  @AuditColumn.createdBy() createdBy?: string | null;
  @AuditColumn.updated() updated?: Date | null;
  @AuditColumn.updatedBy() updatedBy?: string | null;
  // jscpd:ignore-end

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
