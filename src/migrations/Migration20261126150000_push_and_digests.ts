import { Migration } from '@mikro-orm/migrations';

/**
 * Push notifications and e-mail digests leave through the event worker's deliveries, as webhooks
 * and notification e-mail do (docs/events.md, "Push notifications" and "Digests"):
 *
 * - two more channels: `PUSH` (one delivery per notification and device) and `DIGEST` (one per
 *   user and period);
 * - a digest is no outbox event, so `event_id` may be null (only on digests: the others name the
 *   event they carry, and keep their key to it);
 * - each new channel has an index of its undelivered rows by due time (claiming) and by age (the
 *   lag metric), as e-mail has;
 * - at most one digest per user and period end, whichever process schedules it first: a unique
 *   index the scheduler's insert relies on (`on conflict do nothing`);
 * - the digest scheduler finds who is due in every tenant at once, and the dispatch fans a batch
 *   of notifications of many tenants out to e-mail and devices in one statement each: the event
 *   worker may read (read only) notification settings, notifications and push tokens of every
 *   tenant, as it reads the outbox; the application role can never use these policies.
 */
export class Migration20261126150000_push_and_digests extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "event_delivery" drop constraint if exists "event_delivery_channel_check";`);
    this.addSql(
      `alter table "event_delivery" add constraint "event_delivery_channel_check" check ("channel" in ('WEBHOOK', 'EMAIL', 'PUSH', 'DIGEST'));`,
    );
    this.addSql(`alter table "event_delivery" alter column "event_id" drop not null;`);
    this.addSql(
      `alter table "event_delivery" add constraint "event_delivery_event_id_digest_check" check ("event_id" is not null or "channel" = 'DIGEST');`,
    );
    for (const channel of ['PUSH', 'DIGEST']) {
      const name = channel.toLowerCase();
      this.addSql(
        `create index "event_delivery_${name}_due_idx" on "event_delivery" ("next_attempt_at") where "status" = 'PENDING' and "channel" = '${channel}';`,
      );
      this.addSql(
        `create index "event_delivery_${name}_age_idx" on "event_delivery" ("occurred_at") where "status" = 'PENDING' and "channel" = '${channel}';`,
      );
    }
    for (const table of ['notification_settings', 'notification', 'push_token'])
      this.addSql(
        `create policy ${table}_event_worker_read on "${table}" for select using (current_user <> 'bms_app' and current_setting('app.worker', true) = 'events');`,
      );
    this.addSql(
      `create unique index "event_delivery_digest_uq" on "event_delivery" ("tenant_id", (("target" ->> 'userId')), (("target" ->> 'to'))) where "channel" = 'DIGEST';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "event_delivery" where "channel" in ('PUSH', 'DIGEST');`);
    this.addSql(`drop index if exists "event_delivery_digest_uq";`);
    for (const table of ['notification_settings', 'notification', 'push_token'])
      this.addSql(`drop policy if exists ${table}_event_worker_read on "${table}";`);
    for (const name of ['push', 'digest']) {
      this.addSql(`drop index if exists "event_delivery_${name}_due_idx";`);
      this.addSql(`drop index if exists "event_delivery_${name}_age_idx";`);
    }
    this.addSql(`alter table "event_delivery" drop constraint if exists "event_delivery_event_id_digest_check";`);
    this.addSql(`alter table "event_delivery" alter column "event_id" set not null;`);
    this.addSql(`alter table "event_delivery" drop constraint if exists "event_delivery_channel_check";`);
    this.addSql(
      `alter table "event_delivery" add constraint "event_delivery_channel_check" check ("channel" in ('WEBHOOK', 'EMAIL'));`,
    );
  }
}
