import { Migration } from '@mikro-orm/migrations';

/**
 * Outbound events: the transactional outbox, webhook endpoints and the deliveries of events to
 * them (and of notification e-mail). The event worker reads these tables across tenants, as the
 * connection's own user with `app.worker = 'events'` for its claiming transactions (the
 * application role can never use these policies); everything else works as the event's tenant.
 */
export class Migration20261123100000_events extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "event_delivery" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "channel" text check ("channel" in ('WEBHOOK', 'EMAIL')) not null default 'WEBHOOK', "endpoint_id" uuid null, "event_id" uuid not null, "event_type" text not null, "occurred_at" timestamptz not null, "status" text check ("status" in ('PENDING', 'DELIVERED', 'FAILED')) not null default 'PENDING', "attempts" int not null default 0, "next_attempt_at" timestamptz null, "locked_until" timestamptz null, "last_status_code" int null, "last_error" text null, "delivered_at" timestamptz null, "attempt_log" jsonb not null, "target" jsonb null, constraint "event_delivery_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "event_delivery_endpoint_idx" on "event_delivery" ("tenant_id", "endpoint_id", "occurred_at");`);
    this.addSql(`create index "event_delivery_due_idx" on "event_delivery" ("status", "next_attempt_at");`);

    this.addSql(`create table "outbox_event" ("tenant_id" uuid not null, "id" uuid not null, "type" text not null, "resource_type" text not null, "resource_id" text null, "occurred_at" timestamptz not null, "actor" jsonb null, "data" jsonb null, "target_endpoint_id" uuid null, "dispatched_at" timestamptz null, constraint "outbox_event_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "outbox_event_undispatched_idx" on "outbox_event" ("occurred_at", "id") where "dispatched_at" is null;`);

    this.addSql(`create table "webhook_endpoint" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "url" text not null, "events" text[] not null, "description" text null, "active" boolean not null default true, "secret" text not null, "previous_secret" text null, "previous_secret_expires" timestamptz null, "failing_since" timestamptz null, "disabled_reason" text null, constraint "webhook_endpoint_pkey" primary key ("tenant_id", "id"));`);

    for (const table of ['outbox_event', 'event_delivery', 'webhook_endpoint']) {
      this.addSql(
        `create policy ${table}_event_worker on "${table}" using (current_user <> 'bms_app' and current_setting('app.worker', true) = 'events');`,
      );
    }
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "event_delivery" cascade;`);

    this.addSql(`drop table if exists "outbox_event" cascade;`);

    this.addSql(`drop table if exists "webhook_endpoint" cascade;`);
  }

}
