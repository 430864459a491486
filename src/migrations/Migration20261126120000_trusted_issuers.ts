import { Migration } from '@mikro-orm/migrations';

/**
 * Sign-in with a tenant's own identity provider (src/auth/issuers.ts) and "sign out everywhere".
 *
 * `trusted_issuer` is a tenant table under row-level security like every other. Authentication
 * has to find the tenant of a token's `iss` before it knows any tenant, so
 * `bms_trusted_issuer(iss)` reads it across tenants: a security-definer function whose own
 * setting opens the `trusted_issuer_lookup` policy, which the application role can never use
 * directly (the same device as the coverage worker's claim). The issuer is unique across the
 * deployment: a token's `iss` names at most one tenant.
 *
 * Changes to the issuers bump the tenant's caller version and NOTIFY `bms_caller`
 * (Migration20261123140000_caller_cache), so every process drops what it remembers of them.
 */
export class Migration20261126120000_trusted_issuers extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "trusted_issuer" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "issuer" text not null, "jwks_uri" text not null, "audiences" text[] not null, "user_claim" text not null default 'email', "allowed_domains" text[] not null, "create_users" boolean not null default false, "create_role" text null, "key_types" text null, constraint "trusted_issuer_pkey" primary key ("tenant_id", "id"));`,
    );
    this.addSql(`alter table "trusted_issuer" add constraint "trusted_issuer_issuer_uq" unique ("issuer");`);
    this.addSql(`alter table "app_user" add column "signed_out_at" timestamptz null, add column "external_subject" text null;`);
    this.addSql(
      `alter table "app_user" add constraint "app_user_tenant_external_subject_uq" unique ("tenant_id", "external_subject");`,
    );
    this.addSql(`select bms_enable_rls();`);
    this.addSql(
      `create policy trusted_issuer_lookup on "trusted_issuer" for select using (current_user <> 'bms_app' and current_setting('app.worker', true) = 'issuers');`,
    );
    this.addSql(`create or replace function bms_trusted_issuer(iss text) returns setof "trusted_issuer"
language sql stable security definer set search_path from current set app.worker = 'issuers' as $$
  select * from "trusted_issuer" where "issuer" = iss
$$;`);
    this.addSql(
      `create trigger trusted_issuer_caller_changed after insert or update or delete on "trusted_issuer" for each row execute function bms_caller_changed('tenant_id');`,
    );
    this.addSql(
      `create trigger trusted_issuer_callers_truncated after truncate on "trusted_issuer" for each statement execute function bms_callers_truncated();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop function if exists bms_trusted_issuer(text);`);
    this.addSql(`drop table if exists "trusted_issuer" cascade;`);
    this.addSql(`alter table "app_user" drop constraint if exists "app_user_tenant_external_subject_uq";`);
    this.addSql(`alter table "app_user" drop column if exists "signed_out_at", drop column if exists "external_subject";`);
  }
}
