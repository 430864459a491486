import { Arg, Ctx, Field, InputType, Mutation, Resolver } from 'type-graphql';
import { IsOptional, Length } from 'class-validator';
import { Tenant } from '../../entities/tenant';
import { TenantRole } from '../../entities/tenant-role';
import { User } from '../../entities/user';
import type { Context } from '../../context';
import { can, Requires, superAdminOnly } from '../../permissions/rules';
import { Permission, type PermissionList } from '../../permissions/catalog';
import {
  assignRole,
  assignSuperAdmin,
  createRole,
  deleteRole,
  removeRole,
  removeSuperAdmin,
  updateRole,
} from './roles-service';

@InputType('PermissionsInput', {
  description: 'The thirteen permission lists; absent lists are empty. A name must sit in its own list.',
})
export class PermissionsInput implements Partial<Record<PermissionList, string[]>> {
  @Field(() => [Permission], { nullable: true }) appPermissions?: string[];
  @Field(() => [Permission], { nullable: true }) assetManagementPermissions?: string[];
  @Field(() => [Permission], { nullable: true }) calendarPermissions?: string[];
  @Field(() => [Permission], { nullable: true }) communicationsPermissions?: string[];
  @Field(() => [Permission], { nullable: true }) configuratorPermissions?: string[];
  @Field(() => [Permission], { nullable: true }) crmPermissions?: string[];
  @Field(() => [Permission], { nullable: true }) financePermissions?: string[];
  @Field(() => [Permission], { nullable: true }) hrPermissions?: string[];
  @Field(() => [Permission], { nullable: true }) inventoryPermissions?: string[];
  @Field(() => [Permission], { nullable: true }) productionPermissions?: string[];
  @Field(() => [Permission], { nullable: true }) productsPermissions?: string[];
  @Field(() => [Permission], { nullable: true }) projectsPermissions?: string[];
  @Field(() => [Permission], { nullable: true }) reportingPermissions?: string[];
}
@InputType({ description: 'A tenant role: its name and permissions.' })
export class TenantRoleInput {
  @Field(() => String)
  @Length(1, 100)
  name!: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(0, 500)
  description?: string;

  @Field(() => PermissionsInput, { nullable: true })
  permissions?: PermissionsInput;
}

@Resolver(() => TenantRole)
export class TenantRoleResolver {
  @Requires(can('CREATE', 'ROLES'))
  @Mutation(() => Tenant, { description: 'Adds a role; 409 when the name exists (or is SUPER_ADMIN).' })
  createTenantRole(
    @Arg('input', () => TenantRoleInput) input: TenantRoleInput,
    @Ctx() ctx: Context,
  ): Promise<Tenant> {
    return createRole(ctx, input);
  }

  @Requires(can('UPDATE', 'ROLES'))
  @Mutation(() => Tenant, { description: "Replaces a role's permissions (and description when given)." })
  updateTenantRole(
    @Arg('input', () => TenantRoleInput) input: TenantRoleInput,
    @Ctx() ctx: Context,
  ): Promise<Tenant> {
    return updateRole(ctx, input);
  }

  @Requires(can('DELETE', 'ROLES'))
  @Mutation(() => Tenant, { description: 'Deletes a role; users holding it lose it.' })
  deleteTenantRole(@Arg('name', () => String) name: string, @Ctx() ctx: Context): Promise<Tenant> {
    return deleteRole(ctx, name);
  }

  @Requires(can('UPDATE', 'ROLES'))
  @Mutation(() => User, { description: 'Gives a user a role (SUPER_ADMIN: super-admins only).' })
  assignTenantRole(
    @Arg('roleName', () => String) roleName: string,
    @Arg('email', () => String) email: string,
    @Ctx() ctx: Context,
  ): Promise<User> {
    return assignRole(ctx, roleName, email);
  }

  @Requires(can('UPDATE', 'ROLES'))
  @Mutation(() => User, { description: 'Takes a role from a user (SUPER_ADMIN: super-admins only).' })
  removeTenantRole(
    @Arg('roleName', () => String) roleName: string,
    @Arg('email', () => String) email: string,
    @Ctx() ctx: Context,
  ): Promise<User> {
    return removeRole(ctx, roleName, email);
  }

  @Requires(superAdminOnly)
  @Mutation(() => User, { description: 'Makes a user a super-admin.' })
  assignSuperAdmin(@Arg('email', () => String) email: string, @Ctx() ctx: Context): Promise<User> {
    return assignSuperAdmin(ctx, email);
  }

  @Requires(superAdminOnly)
  @Mutation(() => User, { description: 'Takes the super-admin role away; the last active one stays (409).' })
  removeSuperAdmin(@Arg('email', () => String) email: string, @Ctx() ctx: Context): Promise<User> {
    return removeSuperAdmin(ctx, email);
  }
}
