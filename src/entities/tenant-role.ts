import { Entity, Unique } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { Permission, PERMISSION_LIST_NAMES, type PermissionList } from '../permissions/catalog';
import { TenantScoped } from './tenant-scoped';
import { JsonColumn, TextColumn } from './columns';

@ObjectType({ description: 'The thirteen permission lists of a tenant role.' })
export class Permissions implements Record<PermissionList, string[]> {
  @Field(() => [Permission], { description: 'Users, roles, subsidiaries, API keys and webhooks.' })
  appPermissions: string[] = [];
  @Field(() => [Permission], { description: 'Assets.' }) assetManagementPermissions: string[] = [];
  @Field(() => [Permission], { description: 'Calendar events.' }) calendarPermissions: string[] = [];
  @Field(() => [Permission], { description: 'Inbox, sent mails, notifications and templates.' })
  communicationsPermissions: string[] = [];
  @Field(() => [Permission], { description: 'Concepts, types (variables) and type product coverages.' })
  configuratorPermissions: string[] = [];
  @Field(() => [Permission], {
    description: 'Contact-form widgets, activities, bookings, leads, customers and opportunities.',
  })
  crmPermissions: string[] = [];
  @Field(() => [Permission], {
    description: 'Tax percentages, invoices, AP invoices, suppliers and clients.',
  })
  financePermissions: string[] = [];
  @Field(() => [Permission], { description: 'Teams and employees.' }) hrPermissions: string[] = [];
  @Field(() => [Permission], { description: 'Inventory, stock transfers and stock sites.' })
  inventoryPermissions: string[] = [];
  @Field(() => [Permission], { description: 'Waste and production.' }) productionPermissions: string[] = [];
  @Field(() => [Permission], { description: 'Products.' }) productsPermissions: string[] = [];
  @Field(() => [Permission], { description: 'HR projects, epics, features and tasks.' })
  projectsPermissions: string[] = [];
  @Field(() => [Permission], { description: 'Sales reports.' }) reportingPermissions: string[] = [];
}

/** Every permission a role grants, as one flat list. */
export function flattenPermissions(p: Partial<Record<PermissionList, string[]>> | undefined): string[] {
  return p ? PERMISSION_LIST_NAMES.flatMap((list) => p[list] ?? []) : [];
}

/** What TenantRole fields mean, shared with the inputs that set them. */
export const TENANT_ROLE_DOCS = {
  description: 'What the role is for.',
} as const;

@Entity({ tableName: 'tenant_role' })
@Unique({ name: 'tenant_role_tenant_name_uq', properties: ['tenantId', 'name'] })
@ObjectType({ description: 'A named set of permissions that users of a tenant can hold.' })
export class TenantRole extends TenantScoped {
  @TextColumn({
    nullable: false,
    description: 'Name of the role, unique in the tenant; SUPER_ADMIN is reserved.',
  })
  name!: string;

  @TextColumn({ description: TENANT_ROLE_DOCS.description })
  description?: string | null;

  @JsonColumn(() => Permissions, {
    nullable: false,
    description:
      'The permissions the role grants, in the thirteen lists; each list holds only its own resources.',
  })
  permissions: Permissions = new Permissions();
}
