import { Migration } from '@mikro-orm/migrations';

/** Recipients can ask for their notifications by e-mail (off unless they do). */
export class Migration20261123100001_notification_email extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "notification_settings" add column "email_notifications_enabled" boolean not null default false;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "notification_settings" drop column "email_notifications_enabled";`);
  }
}
