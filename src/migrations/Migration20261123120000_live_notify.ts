import { Migration } from '@mikro-orm/migrations';

/**
 * Live subscriptions learn of new events through PostgreSQL's NOTIFY: a row trigger on the outbox
 * notifies the `bms_outbox` channel with `<tenant id>:<event id>`. PostgreSQL delivers a
 * transaction's notifications only when it commits, so listeners hear of exactly the events that
 * committed, after the commit; the payload names the row, and the outbox stays the source of truth.
 */
export class Migration20261123120000_live_notify extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function bms_notify_outbox() returns trigger language plpgsql as $$
begin
  perform pg_notify('bms_outbox', new.tenant_id::text || ':' || new.id::text);
  return null;
end
$$;`);
    this.addSql(
      `create trigger outbox_event_notify after insert on "outbox_event" for each row execute function bms_notify_outbox();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists outbox_event_notify on "outbox_event";`);
    this.addSql(`drop function if exists bms_notify_outbox();`);
  }
}
