import { Migration } from '@mikro-orm/migrations';

/**
 * Invitations of users created INVITED (src/domain/access/invitations.ts): one row per user, a
 * re-invitation replaces its token. Only a digest of the token is stored, so the table's rows
 * cannot be redeemed by whoever reads them; a tenant table under row-level security like the rest.
 */
export class Migration20261130030000_invitations extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "user_invitation" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "user_id" uuid not null, "token_hash" text not null, "expires_at" timestamptz not null, "used_at" timestamptz null, constraint "user_invitation_pkey" primary key ("tenant_id", "id"));`,
    );
    this.addSql(
      `create unique index "user_invitation_user_uq" on "user_invitation" ("tenant_id", "user_id");`,
    );
    this.addSql(
      `create unique index "user_invitation_token_uq" on "user_invitation" ("tenant_id", "token_hash");`,
    );
    // The invited user is one of the same tenant; the invitation goes with the user.
    this.addSql(
      `alter table "user_invitation" add constraint "user_invitation_user_id_tenant_fk" foreign key ("tenant_id", "user_id") references "app_user" ("tenant_id", "id") on delete cascade;`,
    );
    this.addSql(`select bms_enable_rls();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "user_invitation" cascade;`);
  }
}
