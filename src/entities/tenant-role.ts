import { Entity, Property, Unique } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { TenantScoped } from './tenant-scoped';
import { Permission, PERMISSION_LIST_NAMES, type PermissionList } from '../permissions/catalog';

@ObjectType({ description: 'The thirteen permission lists of a tenant role.' })
export class Permissions implements Record<PermissionList, string[]> {
  @Field(() => [Permission]) appPermissions: string[] = [];
  @Field(() => [Permission]) assetManagementPermissions: string[] = [];
  @Field(() => [Permission]) calendarPermissions: string[] = [];
  @Field(() => [Permission]) communicationsPermissions: string[] = [];
  @Field(() => [Permission]) configuratorPermissions: string[] = [];
  @Field(() => [Permission]) crmPermissions: string[] = [];
  @Field(() => [Permission]) financePermissions: string[] = [];
  @Field(() => [Permission]) hrPermissions: string[] = [];
  @Field(() => [Permission]) inventoryPermissions: string[] = [];
  @Field(() => [Permission]) productionPermissions: string[] = [];
  @Field(() => [Permission]) productsPermissions: string[] = [];
  @Field(() => [Permission]) projectsPermissions: string[] = [];
  @Field(() => [Permission]) reportingPermissions: string[] = [];
}

/** Every permission a role grants, as one flat list. */
export function flattenPermissions(p: Partial<Record<PermissionList, string[]>> | undefined): string[] {
  return p ? PERMISSION_LIST_NAMES.flatMap((list) => p[list] ?? []) : [];
}

@Entity({ tableName: 'tenant_role' })
@Unique({ name: 'tenant_role_tenant_name_uq', properties: ['tenantId', 'name'] })
@ObjectType({ description: 'A named set of permissions that users of a tenant can hold.' })
export class TenantRole extends TenantScoped {
  @Property({ type: 'text' })
  @Field(() => String)
  name!: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  description?: string;

  @Property({ type: 'json' })
  @Field(() => Permissions)
  permissions: Permissions = new Permissions();
}
