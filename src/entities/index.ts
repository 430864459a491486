import { AuditLog } from './audit-log';
import { Tenant } from './tenant';
import { TenantRole } from './tenant-role';
import { User } from './user';
import { Concept } from './configurator/concept';
import { TaxPercentage } from './finance/tax-percentage';
import { Customer } from './reference/customer';
import { Employee } from './reference/employee';
import { Opportunity } from './reference/opportunity';
import { Product } from './reference/product';
import { StockSite } from './reference/stock-site';
import { Subsidiary } from './reference/subsidiary';
import { Supplier } from './reference/supplier';

/** Every entity the ORM knows; each one but Tenant is tenant-scoped. */
export const entities = [
  Tenant,
  User,
  TenantRole,
  AuditLog,
  Concept,
  TaxPercentage,
  Employee,
  Customer,
  Opportunity,
  Subsidiary,
  Supplier,
  StockSite,
  Product,
];
