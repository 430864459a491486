import { Migration } from '@mikro-orm/migrations';

export class Migration20261122030229_initial extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "audit_log" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "entity" text not null, "entity_id" uuid not null, "action" text not null, "data" jsonb null, constraint "audit_log_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "audit_log_tenant_entity_idx" on "audit_log" ("tenant_id", "entity", "entity_id");`);

    this.addSql(`create table "concept" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "name" text not null, "building_type" text check ("building_type" in ('ROW', 'DETACHED', 'SEMI_DETACHED', 'CORNER', 'APARTMENT', 'BUNGALOW')) null, constraint "concept_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "concept_tenant_name_idx" on "concept" ("tenant_id", "name");`);

    this.addSql(`create table "tax_percentage" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "percentage" numeric(9,4) not null, constraint "tax_percentage_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "tax_percentage_tenant_pct_idx" on "tax_percentage" ("tenant_id", "percentage");`);

    this.addSql(`create table "tenant" ("id" uuid not null, "name" text not null, "domain" text null, "active" boolean not null default true, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, constraint "tenant_pkey" primary key ("id"));`);

    this.addSql(`create table "tenant_role" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "name" text not null, "description" text null, "permissions" jsonb not null, constraint "tenant_role_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`alter table "tenant_role" add constraint "tenant_role_tenant_name_uq" unique ("tenant_id", "name");`);

    this.addSql(`create table "app_user" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "email" text not null, "first_name" text null, "last_name" text null, "language" text null, "has_full_access" boolean not null default false, "verified" boolean not null default false, "last_login" timestamptz null, "status" text not null default 'ACTIVE', "roles" text[] not null, "project_access" text[] not null, "subsidiary_access" text[] not null, constraint "app_user_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "app_user_tenant_status_idx" on "app_user" ("tenant_id", "status");`);
    this.addSql(`alter table "app_user" add constraint "app_user_tenant_email_uq" unique ("tenant_id", "email");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "audit_log" cascade;`);

    this.addSql(`drop table if exists "concept" cascade;`);

    this.addSql(`drop table if exists "tax_percentage" cascade;`);

    this.addSql(`drop table if exists "tenant" cascade;`);

    this.addSql(`drop table if exists "tenant_role" cascade;`);

    this.addSql(`drop table if exists "app_user" cascade;`);
  }

}
