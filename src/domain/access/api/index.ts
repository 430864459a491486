import type { GroupDef } from '../../../family/group';
import { AccessControlResolver } from './access-control';
import { TenantResolver } from './tenant';
import { TrustedIssuerResolver } from './issuers';
import { ApiKeyResolver } from './api-keys';
import { PersonalDataResolver } from './personal-data';
import { TenantExportResolver } from './tenant-exports';
import { TenantRoleResolver } from './tenant-roles';
import { UserResolver, users } from './users';

/** Users, tenants, tenant roles and access control. */
export const accessGroups: GroupDef<any, any, any>[] = [users];
export const accessResolvers: Function[] = [
  UserResolver,
  TenantResolver,
  TenantRoleResolver,
  AccessControlResolver,
  TrustedIssuerResolver,
  ApiKeyResolver,
  PersonalDataResolver,
  TenantExportResolver,
];
