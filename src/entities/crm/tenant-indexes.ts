import { Index } from '@mikro-orm/core';

const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/**
 * One index per filtered, sorted or searched column, each led by tenant_id: every query carries
 * the tenant filter, so an index without it would be scanned across every tenant's rows.
 * Names follow `<table>_tenant_<column>_idx`, as the migration generator would write them.
 */
export function TenantIndexes(table: string, ...properties: string[]): ClassDecorator {
  return (target) => {
    for (const property of properties) {
      const name = `${table}_tenant_${snake(property)}_idx`;
      Index({ name, properties: ['tenantId', property] as never })(target as never);
    }
  };
}
