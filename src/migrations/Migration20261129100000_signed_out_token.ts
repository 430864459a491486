import { Migration } from '@mikro-orm/migrations';

/**
 * The provider token that asked for a user's last sign-out everywhere (`signed_out_token_id`):
 * a provider's `iat` is a whole second, and a token of the sign-out's own second is refused only
 * when it is this one (src/auth/withdrawal.ts).
 */
export class Migration20261129100000_signed_out_token extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "app_user" add column "signed_out_token_id" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "app_user" drop column "signed_out_token_id";`);
  }
}
