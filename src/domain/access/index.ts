import type { DomainModule } from '../../modules';
import { accessRoutes } from './api/rest';
import { accessEntities } from './entities';
import { identityRoutes } from './api/identity-rest';
import { AccessControlResolver } from './api/access-control';
import { TenantResolver } from './api/tenant';
import { TrustedIssuerResolver } from './api/issuers';
import { ApiKeyResolver } from './api/api-keys';
import { PersonalDataResolver } from './api/personal-data';
import { TenantExportResolver } from './api/tenant-exports';
import { TenantRoleResolver } from './api/tenant-roles';
import { UserResolver, users } from './api/users';

/** Users, tenants, tenant roles, access control, trusted issuers and API keys. */
export const accessModule: DomainModule = {
  entities: accessEntities,
  groups: [users],
  resolvers: [
    UserResolver,
    TenantResolver,
    TenantRoleResolver,
    AccessControlResolver,
    TrustedIssuerResolver,
    ApiKeyResolver,
    PersonalDataResolver,
    TenantExportResolver,
  ],
  routes: [...accessRoutes, ...identityRoutes],
};
