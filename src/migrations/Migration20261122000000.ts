import { Migration } from '@mikro-orm/migrations';

export class Migration20261122030816_initial extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "audit_log" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "entity" text not null, "entity_id" uuid not null, "action" text not null, "data" jsonb null, constraint "audit_log_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "audit_log_tenant_entity_idx" on "audit_log" ("tenant_id", "entity", "entity_id");`);

    this.addSql(`create table "concept" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "name" text not null, "building_type" text check ("building_type" in ('ROW', 'DETACHED', 'SEMI_DETACHED', 'CORNER', 'APARTMENT', 'BUNGALOW')) null, constraint "concept_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "concept_tenant_name_idx" on "concept" ("tenant_id", "name");`);

    this.addSql(`create table "customer" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "name" text not null, "email" text null, "phone" text null, constraint "customer_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "customer_tenant_name_idx" on "customer" ("tenant_id", "name");`);

    this.addSql(`create table "employee" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "first_name" text null, "last_name" text null, "email" text null, "job_title" text null, "department" text null, "avatar" text null, "phone" text null, "user_id" uuid null, constraint "employee_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "employee_tenant_email_idx" on "employee" ("tenant_id", "email");`);

    this.addSql(`create table "opportunity" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "name" text not null, "value" numeric(14,2) null, "customer_id" uuid null, constraint "opportunity_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "opportunity_tenant_customer_idx" on "opportunity" ("tenant_id", "customer_id");`);

    this.addSql(`create table "product" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "name" text not null, "brand" text null, "category" text null, "product_type" text check ("product_type" in ('RAW_MATERIAL', 'SEMI_FINISHED', 'FINISHED_GOOD', 'SERVICE')) null, "unit_price" numeric(14,4) null, "sales_price" numeric(14,4) null, "currency" text null, "image_blob_id" text null, "base_unit" jsonb null, "units_of_measurement" jsonb not null, "image_assets" jsonb not null, constraint "product_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "product_tenant_name_idx" on "product" ("tenant_id", "name");`);

    this.addSql(`create table "stock_site" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "name" text not null, "subsidiary_id" uuid null, constraint "stock_site_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "stock_site_tenant_subsidiary_idx" on "stock_site" ("tenant_id", "subsidiary_id");`);

    this.addSql(`create table "subsidiary" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "name" text not null, "color" text null, constraint "subsidiary_pkey" primary key ("tenant_id", "id"));`);

    this.addSql(`create table "supplier" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "name" text not null, "email" text null, constraint "supplier_pkey" primary key ("tenant_id", "id"));`);

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

    this.addSql(`drop table if exists "customer" cascade;`);

    this.addSql(`drop table if exists "employee" cascade;`);

    this.addSql(`drop table if exists "opportunity" cascade;`);

    this.addSql(`drop table if exists "product" cascade;`);

    this.addSql(`drop table if exists "stock_site" cascade;`);

    this.addSql(`drop table if exists "subsidiary" cascade;`);

    this.addSql(`drop table if exists "supplier" cascade;`);

    this.addSql(`drop table if exists "tax_percentage" cascade;`);

    this.addSql(`drop table if exists "tenant" cascade;`);

    this.addSql(`drop table if exists "tenant_role" cascade;`);

    this.addSql(`drop table if exists "app_user" cascade;`);
  }

}
