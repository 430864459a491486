import { Migration } from '@mikro-orm/migrations';

/**
 * A tenant's deletion with a grace period: `delete_after` is set (and `active` cleared) when an
 * operator deletes the tenant, cleared when it is brought back; once past, the tenant's rows and
 * stored files are removed. The event worker reads whether a tenant is active when it claims
 * deliveries, so a disabled tenant's webhooks and e-mails stop at once; the purge job finds the
 * tenants whose grace period is over. Like the workers' other policies, these admit the workers'
 * transactions only, never the application role.
 */
export class Migration20261126160000_tenant_lifecycle extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "tenant" add column "delete_after" timestamptz null;`);
    this.addSql(
      `create policy tenant_event_worker on tenant for select using (current_user <> 'bms_app' and current_setting('app.worker', true) = 'events');`,
    );
    this.addSql(
      `create policy tenant_purge_worker on tenant for select using (current_user <> 'bms_app' and current_setting('app.worker', true) = 'tenant-purge');`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop policy if exists tenant_purge_worker on tenant;`);
    this.addSql(`drop policy if exists tenant_event_worker on tenant;`);
    this.addSql(`alter table "tenant" drop column if exists "delete_after";`);
  }
}
