import { AuditLog } from './audit-log';
import { Tenant } from './tenant';
import { TenantRole } from './tenant-role';
import { User } from './user';
import { Concept } from './configurator/concept';
import { TaxPercentage } from './finance/tax-percentage';

/** Every entity the ORM knows; each one but Tenant is tenant-scoped. */
export const entities = [Tenant, User, TenantRole, AuditLog, Concept, TaxPercentage];
