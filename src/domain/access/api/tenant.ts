import { Arg, Ctx, Field, FieldResolver, InputType, Mutation, Query, Resolver, Root } from 'type-graphql';
import { IsOptional, Length } from 'class-validator';
import { DateTimeISOResolver } from '../../../schema/date-time';
import {
  BillingInfo,
  completeBillingInfo,
  completeScopes,
  completeSettings,
  Tenant,
  TenantScopes,
  TenantSettings,
  TenantSubscription,
  TENANT_DOCS,
} from '../../../entities/tenant';
import { TenantRole } from '../../../entities/tenant-role';
import { ImageRef } from '../../../entities/shared';
import { checkTimeZone } from '../time-zone';
import { checkFinanceSettings } from '../../finance/tenant-defaults';
import { checkFileRefs } from '../../files/references';
import { callerOf, type Context } from '../../../context';
import { loaderManyBy } from '../../../family/loaders';
import { authenticated, Requires, superAdminOnly } from '../../../permissions/rules';
import { callerTenant } from '../caller-tenant';

@InputType({
  description:
    'Changes to the tenant; absent fields stay. `scopes` changes only the areas named; `billingInfo`, `settings` and logos replace the stored value as a whole.',
})
export class UpdateTenantInput {
  @Field(() => String, { nullable: true, description: TENANT_DOCS.name })
  @IsOptional()
  @Length(1, 200)
  name?: string;
  @Field(() => String, { nullable: true, description: TENANT_DOCS.domain })
  @IsOptional()
  @Length(0, 253)
  domain?: string;
  @Field(() => String, { nullable: true, description: TENANT_DOCS.owner })
  @IsOptional()
  @Length(0, 254)
  owner?: string;
  @Field(() => String, { nullable: true, description: TENANT_DOCS.logoUrl })
  @IsOptional()
  @Length(0, 2000)
  logoUrl?: string;
  @Field(() => ImageRef, { nullable: true, description: TENANT_DOCS.logo }) logo?: ImageRef;
  @Field(() => ImageRef, { nullable: true, description: TENANT_DOCS.lightThemeLogo })
  lightThemeLogo?: ImageRef;
  @Field(() => TenantSubscription, { nullable: true, description: TENANT_DOCS.subscription })
  subscription?: TenantSubscription;
  @Field(() => DateTimeISOResolver, { nullable: true, description: TENANT_DOCS.subscriptionExpires })
  subscriptionExpires?: Date;
  @Field(() => BillingInfo, {
    nullable: true,
    description: 'How the tenant is billed; replaces the stored value.',
  })
  billingInfo?: BillingInfo;
  @Field(() => TenantScopes, { nullable: true, description: TENANT_DOCS.scopes })
  scopes?: TenantScopes;
  @Field(() => TenantSettings, {
    nullable: true,
    description: 'Tenant-wide settings; replaces the stored value.',
  })
  settings?: TenantSettings;
}

export async function updateTenant(ctx: Context, input: UpdateTenantInput): Promise<Tenant> {
  const caller = callerOf(ctx);
  const tenant = await callerTenant(ctx);
  await checkFileRefs(ctx, input);
  const { billingInfo, scopes, settings, ...plain } = input;
  for (const [key, value] of Object.entries(plain)) {
    if (value !== undefined) (tenant as unknown as Record<string, unknown>)[key] = value;
  }
  if (billingInfo !== undefined) tenant.billingInfo = completeBillingInfo(billingInfo);
  if (scopes !== undefined && scopes !== null) tenant.scopes = completeScopes(scopes, tenant.scopes);
  checkTimeZone('settings.defaultTimezone', settings?.defaultTimezone);
  checkFinanceSettings(settings);
  if (settings !== undefined) tenant.settings = completeSettings(settings);
  // Tenant is not a tenant-scoped record, so the audit subscriber leaves it to us.
  tenant.updated = new Date();
  tenant.updatedBy = caller.email;
  await ctx.em.flush();
  return tenant;
}

@Resolver(() => Tenant)
export class TenantResolver {
  @Requires(authenticated)
  @Query(() => Tenant, { description: "The caller's tenant: name, branding, scopes, settings, roles." })
  tenant(@Ctx() ctx: Context): Promise<Tenant> {
    return callerTenant(ctx);
  }

  @Requires(superAdminOnly)
  @Mutation(() => Tenant, { description: "Changes the caller's tenant (super-admins only)." })
  updateTenant(
    @Arg('input', () => UpdateTenantInput, { description: 'The fields to change; others stay.' })
    input: UpdateTenantInput,
    @Ctx() ctx: Context,
  ): Promise<Tenant> {
    return updateTenant(ctx, input);
  }

  @FieldResolver(() => [TenantRole], {
    description: 'The stored roles; the built-in SUPER_ADMIN role is not among them.',
  })
  tenantRoles(@Root() tenant: Tenant, @Ctx() ctx: Context): Promise<TenantRole[]> {
    return loaderManyBy(ctx, TenantRole, 'tenantId').load(tenant.id);
  }
}
