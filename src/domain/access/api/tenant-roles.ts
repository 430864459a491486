import { Arg, Ctx, Field, InputType, Mutation, Resolver } from 'type-graphql';
import { IsOptional, Length } from 'class-validator';
import { Tenant } from '../../../entities/tenant';
import { TenantRole, TENANT_ROLE_DOCS } from '../../../entities/tenant-role';
import { User } from '../../../entities/user';
import type { Context } from '../../../context';
import { can, Requires, superAdminOnly } from '../../../permissions/rules';
import { Permission, type PermissionList } from '../../../permissions/catalog';
import {
  assignRole,
  assignSuperAdmin,
  createRole,
  deleteRole,
  removeRole,
  removeSuperAdmin,
  updateRole,
} from '../roles-service';

/** The arguments that name a role and a user, declared once for the mutations that take them. */
const RoleArg = {
  name: (arg: 'name' | 'roleName' = 'name') => Arg(arg, () => String, { description: 'Name of the role.' }),
  email: () => Arg('email', () => String, { description: 'E-mail address of the user.' }),
};

@InputType('PermissionsInput', {
  description: 'The thirteen permission lists; absent lists are empty. A name must sit in its own list.',
})
export class PermissionsInput implements Partial<Record<PermissionList, string[]>> {
  @Field(() => [Permission], {
    nullable: true,
    description: 'Users, roles, subsidiaries, API keys and webhooks (absent: none).',
  })
  appPermissions?: string[];
  @Field(() => [Permission], { nullable: true, description: 'Assets (absent: none).' })
  assetManagementPermissions?: string[];
  @Field(() => [Permission], { nullable: true, description: 'Calendar events (absent: none).' })
  calendarPermissions?: string[];
  @Field(() => [Permission], {
    nullable: true,
    description: 'Inbox, sent mails, notifications and templates (absent: none).',
  })
  communicationsPermissions?: string[];
  @Field(() => [Permission], {
    nullable: true,
    description: 'Concepts, types (variables) and type product coverages (absent: none).',
  })
  configuratorPermissions?: string[];
  @Field(() => [Permission], {
    description:
      'Contact-form widgets, activities, bookings, leads, customers and opportunities (absent: none).',
    nullable: true,
  })
  crmPermissions?: string[];
  @Field(() => [Permission], {
    nullable: true,
    description: 'Tax percentages, invoices, AP invoices, suppliers and clients (absent: none).',
  })
  financePermissions?: string[];
  @Field(() => [Permission], { nullable: true, description: 'Teams and employees (absent: none).' })
  hrPermissions?: string[];
  @Field(() => [Permission], {
    nullable: true,
    description: 'Inventory, stock transfers and stock sites (absent: none).',
  })
  inventoryPermissions?: string[];
  @Field(() => [Permission], { nullable: true, description: 'Waste and production (absent: none).' })
  productionPermissions?: string[];
  @Field(() => [Permission], { nullable: true, description: 'Products (absent: none).' })
  productsPermissions?: string[];
  @Field(() => [Permission], {
    nullable: true,
    description: 'HR projects, epics, features and tasks (absent: none).',
  })
  projectsPermissions?: string[];
  @Field(() => [Permission], { nullable: true, description: 'Sales reports (absent: none).' })
  reportingPermissions?: string[];
}
@InputType({ description: 'A tenant role: its name and permissions.' })
export class TenantRoleInput {
  @Field(() => String, {
    description: 'Name of the role, unique in the tenant; SUPER_ADMIN is reserved (409).',
  })
  @Length(1, 100)
  name!: string;

  @Field(() => String, { nullable: true, description: TENANT_ROLE_DOCS.description })
  @IsOptional()
  @Length(0, 500)
  description?: string;

  @Field(() => PermissionsInput, {
    description:
      'The permissions the role grants; replaces all thirteen lists. An unknown permission, or one in the wrong list, is a 400.',
    nullable: true,
  })
  permissions?: PermissionsInput;
}

@Resolver(() => TenantRole)
export class TenantRoleResolver {
  @Requires(can('CREATE', 'ROLES'))
  @Mutation(() => Tenant, { description: 'Adds a role; 409 when the name exists (or is SUPER_ADMIN).' })
  createTenantRole(
    @Arg('input', () => TenantRoleInput, { description: 'The new role.' }) input: TenantRoleInput,
    @Ctx() ctx: Context,
  ): Promise<Tenant> {
    return createRole(ctx, input);
  }

  @Requires(can('UPDATE', 'ROLES'))
  @Mutation(() => Tenant, { description: "Replaces a role's permissions (and description when given)." })
  updateTenantRole(
    @Arg('input', () => TenantRoleInput, { description: "The role's new name, description and permissions." })
    input: TenantRoleInput,
    @Ctx() ctx: Context,
  ): Promise<Tenant> {
    return updateRole(ctx, input);
  }

  @Requires(can('DELETE', 'ROLES'))
  @Mutation(() => Tenant, { description: 'Deletes a role; users holding it lose it.' })
  deleteTenantRole(@RoleArg.name() name: string, @Ctx() ctx: Context): Promise<Tenant> {
    return deleteRole(ctx, name);
  }

  @Requires(can('UPDATE', 'ROLES'))
  @Mutation(() => User, { description: 'Gives a user a role (SUPER_ADMIN: super-admins only).' })
  assignTenantRole(
    @RoleArg.name('roleName') roleName: string,
    @RoleArg.email() email: string,
    @Ctx() ctx: Context,
  ): Promise<User> {
    return assignRole(ctx, roleName, email);
  }

  @Requires(can('UPDATE', 'ROLES'))
  @Mutation(() => User, { description: 'Takes a role from a user (SUPER_ADMIN: super-admins only).' })
  removeTenantRole(
    @RoleArg.name('roleName') roleName: string,
    @RoleArg.email() email: string,
    @Ctx() ctx: Context,
  ): Promise<User> {
    return removeRole(ctx, roleName, email);
  }

  @Requires(superAdminOnly)
  @Mutation(() => User, { description: 'Makes a user a super-admin.' })
  assignSuperAdmin(@RoleArg.email() email: string, @Ctx() ctx: Context): Promise<User> {
    return assignSuperAdmin(ctx, email);
  }

  @Requires(superAdminOnly)
  @Mutation(() => User, { description: 'Takes the super-admin role away; the last active one stays (409).' })
  removeSuperAdmin(@RoleArg.email() email: string, @Ctx() ctx: Context): Promise<User> {
    return removeSuperAdmin(ctx, email);
  }
}
