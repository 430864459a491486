import { Migration } from '@mikro-orm/migrations';

/**
 * Claiming deliveries in time that does not grow with the backlog (docs/events.md, "Delivery,
 * retries and order"):
 *
 * - `event_delivery_window_idx` holds only the undelivered webhook deliveries, in each endpoint's
 *   order: the claim skips from endpoint to endpoint over it and reads the first few of each, so a
 *   long backlog behind an endpoint's head is never read;
 * - `event_delivery_email_due_idx` holds only the undelivered e-mail, by due time;
 * - `event_delivery_email_age_idx` the same e-mail by age, for the lag metric;
 * - the old (status, next_attempt_at) index, which every delivered row stayed in and no claim used
 *   any more, goes.
 *
 * A claim is held by a short lease that its process renews while the attempt runs (`locked_by`
 * names the process); an endpoint that keeps failing opens its circuit for a while
 * (`consecutive_failures`, `circuit_open_until`).
 */
export class Migration20261126110000_delivery_window extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "event_delivery" add column "locked_by" uuid null;`);
    this.addSql(
      `alter table "webhook_endpoint" add column "consecutive_failures" int not null default 0, add column "circuit_open_until" timestamptz null;`,
    );
    this.addSql(
      `create index "event_delivery_window_idx" on "event_delivery" ("tenant_id", "endpoint_id", "occurred_at", "id") where "status" = 'PENDING' and "channel" = 'WEBHOOK';`,
    );
    this.addSql(
      `create index "event_delivery_email_due_idx" on "event_delivery" ("next_attempt_at") where "status" = 'PENDING' and "channel" = 'EMAIL';`,
    );
    this.addSql(
      `create index "event_delivery_email_age_idx" on "event_delivery" ("occurred_at") where "status" = 'PENDING' and "channel" = 'EMAIL';`,
    );
    this.addSql(`drop index if exists "event_delivery_due_idx";`);
  }

  override async down(): Promise<void> {
    this.addSql(`create index "event_delivery_due_idx" on "event_delivery" ("status", "next_attempt_at");`);
    this.addSql(`drop index if exists "event_delivery_window_idx";`);
    this.addSql(`drop index if exists "event_delivery_email_due_idx";`);
    this.addSql(`drop index if exists "event_delivery_email_age_idx";`);
    this.addSql(
      `alter table "webhook_endpoint" drop column "consecutive_failures", drop column "circuit_open_until";`,
    );
    this.addSql(`alter table "event_delivery" drop column "locked_by";`);
  }
}
