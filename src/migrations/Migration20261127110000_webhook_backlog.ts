import { Migration } from '@mikro-orm/migrations';

/**
 * Where each endpoint's undelivered webhook deliveries begin (docs/events.md, "Delivery, retries
 * and order"): `webhook_backlog` has a row per endpoint that has had deliveries, and
 * `pending_from` is at or below the `occurred_at` of every one of its PENDING deliveries
 * ('infinity': none). The claim reads `event_delivery_window_idx` from there, so it no longer
 * steps over the entries that recorded deliveries leave in that index until vacuum.
 *
 * - Every insert of deliveries lowers the bound to its earliest (a statement trigger, so the
 *   dispatcher, a redelivery and a test event alike) and counts the change in `changes`, in the
 *   inserting transaction.
 * - The claim raises it to the head it found, only if no insert was counted since its snapshot
 *   (`changes` as read) and the row is not locked by an insert under way: an insert it cannot see
 *   then lowers it again, or has kept it from moving.
 *
 * Its rows follow from the deliveries, so a tenant's export leaves them out and an import makes
 * them anew as it inserts the deliveries (src/services/tenant-table-repository.ts); its key to the endpoint
 * is checked at commit, as the deliveries' own is, since an import may insert deliveries first.
 */
export class Migration20261127110000_webhook_backlog extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "webhook_backlog" (
  "tenant_id" uuid not null,
  "endpoint_id" uuid not null,
  "pending_from" timestamptz not null,
  "changes" bigint not null default 0,
  constraint "webhook_backlog_pkey" primary key ("tenant_id", "endpoint_id"),
  constraint "webhook_backlog_endpoint_tenant_fk" foreign key ("tenant_id", "endpoint_id")
    references "webhook_endpoint" ("tenant_id", "id") on delete cascade deferrable initially deferred);`);
    this.addSql(`select bms_enable_rls();`);
    this.addSql(
      `create policy webhook_backlog_event_worker on webhook_backlog using (current_user <> 'bms_app' and current_setting('app.worker', true) = 'events');`,
    );
    this.addSql(`create or replace function bms_note_webhook_backlog() returns trigger language plpgsql as $$
      begin
        insert into webhook_backlog as b (tenant_id, endpoint_id, pending_from)
        select tenant_id, endpoint_id, min(occurred_at) from added
        where channel = 'WEBHOOK' and status = 'PENDING' and endpoint_id is not null
        group by tenant_id, endpoint_id
        order by tenant_id, endpoint_id
        on conflict (tenant_id, endpoint_id) do update
          set pending_from = least(b.pending_from, excluded.pending_from), changes = b.changes + 1;
        return null;
      end $$;`);
    this.addSql(
      `create trigger event_delivery_backlog after insert on "event_delivery" referencing new table as added for each statement execute function bms_note_webhook_backlog();`,
    );
    // The deliveries already waiting (the worker's policy lets this read them).
    this.addSql(`select set_config('app.worker', 'events', true);`);
    this.addSql(`insert into webhook_backlog (tenant_id, endpoint_id, pending_from)
      select tenant_id, endpoint_id, min(occurred_at) from event_delivery
      where channel = 'WEBHOOK' and status = 'PENDING' and endpoint_id is not null
      group by tenant_id, endpoint_id;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists event_delivery_backlog on "event_delivery";`);
    this.addSql(`drop function if exists bms_note_webhook_backlog();`);
    this.addSql(`drop table if exists "webhook_backlog";`);
  }
}
