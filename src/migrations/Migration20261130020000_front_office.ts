import { Migration } from '@mikro-orm/migrations';

/**
 * The public front office: the web origins a contact-form widget may be sent from (CORS of the
 * public route), and when a booking's reminder went out (so it goes once).
 */
export class Migration20261130020000_front_office extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "contact_form_widget_config" add column "allowed_origins" jsonb not null default '[]';`,
    );
    this.addSql(`alter table "booking" add column "reminded_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "booking" drop column "reminded_at";`);
    this.addSql(`alter table "contact_form_widget_config" drop column "allowed_origins";`);
  }
}
