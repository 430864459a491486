import { Migration } from '@mikro-orm/migrations';

/**
 * The outbox's NOTIFY once per inserting statement rather than once per row: a statement-level
 * trigger sees the statement's new rows as a transition table and sends, per tenant,
 * `<tenant id>:<event id>,<event id>,...` in the order the rows were inserted. A flush inserts a
 * transaction's outbox rows in one statement, so a create NOTIFYs once. A payload names at most
 * 200 events (PostgreSQL limits a payload to 8000 bytes); more rows take more notifications.
 */
export class Migration20261123140100_outbox_notify extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function bms_notify_outbox_rows() returns trigger language plpgsql as $$
declare
  batch record;
begin
  for batch in
    select r.tenant_id, string_agg(r.id::text, ',' order by r.n) as ids
    from (select a.tenant_id, a.id, row_number() over () as n from added a) r
    group by r.tenant_id, (r.n - 1) / 200
    order by min(r.n)
  loop
    perform pg_notify('bms_outbox', batch.tenant_id::text || ':' || batch.ids);
  end loop;
  return null;
end
$$;`);
    this.addSql(`drop trigger if exists outbox_event_notify on "outbox_event";`);
    this.addSql(
      `create trigger outbox_event_notify after insert on "outbox_event" referencing new table as added for each statement execute function bms_notify_outbox_rows();`,
    );
    this.addSql(`drop function if exists bms_notify_outbox();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists outbox_event_notify on "outbox_event";`);
    this.addSql(`drop function if exists bms_notify_outbox_rows();`);
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
}
