import { Migration } from '@mikro-orm/migrations';

/**
 * Due-date reminders and sign-ins: when an AP invoice's creator was reminded that it is due
 * (`ap_invoice.due_notified_at`) and when a lead's owner was last reminded of its next action
 * (`lead.next_action_notified_at`), each stamped once per reminder (src/domain/crm/reminders.ts,
 * src/domain/finance/reminders.ts). A user's `last_login`, written at most once a minute by
 * sign-ins, no longer counts as a change of the caller: the trigger that bumps the tenant's caller
 * version (Migration20261123140000_caller_cache) now skips an update that changes `last_login` and
 * nothing else (any other update, one that changes nothing included, still counts), so a sign-in
 * never drops the tenant's remembered callers.
 */
export class Migration20261130010000_notify extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "ap_invoice" add column "due_notified_at" timestamptz null;`);
    this.addSql(`alter table "lead" add column "next_action_notified_at" timestamptz null;`);
    this.addSql(`drop trigger if exists app_user_caller_changed on "app_user";`);
    this.addSql(
      `create trigger app_user_caller_changed after insert or delete on "app_user" for each row execute function bms_caller_changed('tenant_id');`,
    );
    this.addSql(
      `create trigger app_user_caller_updated after update on "app_user" for each row when (old.last_login is not distinct from new.last_login or (to_jsonb(old) - 'last_login') is distinct from (to_jsonb(new) - 'last_login')) execute function bms_caller_changed('tenant_id');`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists app_user_caller_updated on "app_user";`);
    this.addSql(`drop trigger if exists app_user_caller_changed on "app_user";`);
    this.addSql(
      `create trigger app_user_caller_changed after insert or update or delete on "app_user" for each row execute function bms_caller_changed('tenant_id');`,
    );
    this.addSql(`alter table "lead" drop column "next_action_notified_at";`);
    this.addSql(`alter table "ap_invoice" drop column "due_notified_at";`);
  }
}
