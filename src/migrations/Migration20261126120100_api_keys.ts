import { Migration } from '@mikro-orm/migrations';

/**
 * API keys (src/auth/api-keys.ts), a tenant table under row-level security: a key carries its
 * tenant's and its own id, so authentication reads it in its tenant's transaction like a user.
 * A change to what a key may do bumps the tenant's caller version and NOTIFYs `bms_caller`
 * (Migration20261123140000_caller_cache), so every process drops the key it remembers; the
 * throttled `last_used_at` writes do not.
 */
export class Migration20261126120100_api_keys extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "api_key" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "name" text not null, "hint" text not null, "secret_hash" text not null, "permissions" text[] not null, "subsidiary_id" uuid null, "project_id" uuid null, "expires_at" timestamptz null, "revoked_at" timestamptz null, "last_used_at" timestamptz null, "creator_id" uuid not null, constraint "api_key_pkey" primary key ("tenant_id", "id"));`,
    );
    this.addSql(`select bms_enable_rls();`);
    this.addSql(
      `create trigger api_key_caller_changed after insert or delete or update of "secret_hash", "permissions", "subsidiary_id", "project_id", "expires_at", "revoked_at", "creator_id" on "api_key" for each row execute function bms_caller_changed('tenant_id');`,
    );
    this.addSql(
      `create trigger api_key_callers_truncated after truncate on "api_key" for each statement execute function bms_callers_truncated();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "api_key" cascade;`);
  }
}
