import { Migration } from '@mikro-orm/migrations';

/**
 * The event tables join the tenant foreign keys: a delivery belongs to its endpoint and its outbox
 * event, and an event aimed at one endpoint (a test send) goes with that endpoint. Deleting an
 * endpoint already deletes its delivery log; the keys make the database hold to it. They are checked
 * at commit (deferred): a test send writes its delivery and its event in one flush, in an order the
 * unit of work chooses.
 */
export class Migration20261123110000_event_keys extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "event_delivery_tenant_event_id_idx" on "event_delivery" ("tenant_id", "event_id");`);
    this.addSql(
      `create index "outbox_event_tenant_target_endpoint_id_idx" on "outbox_event" ("tenant_id", "target_endpoint_id");`,
    );
    for (const [table, column, target] of [
      ['event_delivery', 'endpoint_id', 'webhook_endpoint'],
      ['event_delivery', 'event_id', 'outbox_event'],
      ['outbox_event', 'target_endpoint_id', 'webhook_endpoint'],
    ])
      this.addSql(
        `alter table "${table}" add constraint "${table}_${column}_tenant_fk" foreign key ("tenant_id", "${column}") references "${target}" ("tenant_id", "id") on delete cascade deferrable initially deferred;`,
      );
    // Row-level security forced on the event tables as on every other (idempotent).
    this.addSql(`select bms_enable_rls();`);
  }

  override async down(): Promise<void> {
    for (const [table, column] of [
      ['event_delivery', 'endpoint_id'],
      ['event_delivery', 'event_id'],
      ['outbox_event', 'target_endpoint_id'],
    ])
      this.addSql(`alter table "${table}" drop constraint if exists "${table}_${column}_tenant_fk";`);
    this.addSql(`drop index if exists "event_delivery_tenant_event_id_idx";`);
    this.addSql(`drop index if exists "outbox_event_tenant_target_endpoint_id_idx";`);
  }
}
