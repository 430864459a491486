import { Migration } from '@mikro-orm/migrations';

/**
 * The public front office: the web origins a contact-form widget may be sent from (CORS of the
 * public route).
 */
export class Migration20261130020000_front_office extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "contact_form_widget_config" add column "allowed_origins" jsonb not null default '[]';`,
    );
    // The default fills the widgets that exist; the service writes the list on every new one.
    this.addSql(`alter table "contact_form_widget_config" alter column "allowed_origins" drop default;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "contact_form_widget_config" drop column "allowed_origins";`);
  }
}
