import { Migration } from '@mikro-orm/migrations';

/**
 * Idempotency keys: the stored answers of writes sent with an `Idempotency-Key` header, per
 * tenant and caller. A caller's keys go with the caller (cascade). Row-level security as on every
 * tenant table; the job runner's clean-up deletes expired keys of every tenant through a policy of
 * its own, which (like the coverage worker's claim) the application role can never use.
 */
export class Migration20261123130000_idempotency extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "idempotency_key" ("tenant_id" uuid not null, "user_id" uuid not null, "key" text not null, "request_hash" text not null, "status" int not null, "headers" jsonb not null, "body" text not null, "created" timestamptz not null, "expires_at" timestamptz not null, constraint "idempotency_key_pkey" primary key ("tenant_id", "user_id", "key"));`,
    );
    this.addSql(
      `alter table "idempotency_key" add constraint "idempotency_key_user_id_tenant_fk" foreign key ("tenant_id", "user_id") references "app_user" ("tenant_id", "id") on delete cascade;`,
    );
    this.addSql(`select bms_enable_rls();`);
    this.addSql(
      `create policy idempotency_key_cleanup on idempotency_key using (current_user <> 'bms_app' and current_setting('app.worker', true) = 'idempotency-cleanup');`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "idempotency_key" cascade;`);
  }
}
