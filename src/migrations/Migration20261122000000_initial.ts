import { Migration } from '@mikro-orm/migrations';

export class Migration20261122000000_initial extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "activity" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "subject" text not null, "description" text null, "location" text null, "outcome" text null, "contact_email" text null, "contact_name" text null, "contact_phone" text null, "customer_id" uuid null, "opportunity_id" uuid null, "owner_id" uuid null, "type" text check ("type" in ('CALL', 'EMAIL', 'MEETING', 'NOTE', 'TASK')) not null, "priority" text check ("priority" in ('LOW', 'MEDIUM', 'HIGH', 'URGENT')) null, "attendees" text[] not null, "scheduled_at" timestamptz null, "due_date" timestamptz null, "completed_at" timestamptz null, "due_notified_at" timestamptz null, "duration_minutes" int null, "completed" boolean not null default false, constraint "activity_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "activity_tenant_subject_idx" on "activity" ("tenant_id", "subject");`);
    this.addSql(`create index "activity_tenant_contact_name_idx" on "activity" ("tenant_id", "contact_name");`);
    this.addSql(`create index "activity_tenant_contact_email_idx" on "activity" ("tenant_id", "contact_email");`);
    this.addSql(`create index "activity_tenant_type_idx" on "activity" ("tenant_id", "type");`);
    this.addSql(`create index "activity_tenant_priority_idx" on "activity" ("tenant_id", "priority");`);
    this.addSql(`create index "activity_tenant_completed_idx" on "activity" ("tenant_id", "completed");`);
    this.addSql(`create index "activity_tenant_customer_id_idx" on "activity" ("tenant_id", "customer_id");`);
    this.addSql(`create index "activity_tenant_opportunity_id_idx" on "activity" ("tenant_id", "opportunity_id");`);
    this.addSql(`create index "activity_tenant_owner_id_idx" on "activity" ("tenant_id", "owner_id");`);
    this.addSql(`create index "activity_tenant_scheduled_at_idx" on "activity" ("tenant_id", "scheduled_at");`);
    this.addSql(`create index "activity_tenant_due_date_idx" on "activity" ("tenant_id", "due_date");`);
    this.addSql(`create index "activity_tenant_completed_at_idx" on "activity" ("tenant_id", "completed_at");`);

    this.addSql(`create table "ap_invoice" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "invoice_number" text null, "reference_number" text null, "currency" text null, "note" text null, "subsidiary_id" uuid null, "supplier_id" uuid null, "supplier_name" text null, "supplier_email" text null, "invoice_date" timestamptz null, "due_date" timestamptz null, "received_date" timestamptz null, "paid_date" timestamptz null, "subtotal" numeric(14,2) null, "tax_amount" numeric(14,2) null, "total_amount" numeric(14,2) null, "total_linked_amount" numeric(14,2) null, "unlinked_amount" numeric(14,2) null, "outstanding_amount" numeric(14,2) null, "paid_amount" numeric(14,2) null, "status" text check ("status" in ('DRAFT', 'APPROVED', 'POSTED', 'CANCELLED')) null, "payment_status" text check ("payment_status" in ('UNPAID', 'PARTIALLY_PAID', 'PAID')) null, "classification_method" text check ("classification_method" in ('MANUAL', 'RULE', 'AI')) null, "classification" jsonb null, "attachments" jsonb not null, "pdf" jsonb null, "linked_purchase_orders" jsonb not null, "payments" jsonb not null, "rows" jsonb not null, "purchase_order_ids" text[] not null, constraint "ap_invoice_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "ap_invoice_tenant_purchase_order_ids_idx" on "ap_invoice" ("tenant_id", "purchase_order_ids");`);
    this.addSql(`create index "ap_invoice_tenant_outstanding_amount_idx" on "ap_invoice" ("tenant_id", "outstanding_amount");`);
    this.addSql(`create index "ap_invoice_tenant_total_amount_idx" on "ap_invoice" ("tenant_id", "total_amount");`);
    this.addSql(`create index "ap_invoice_tenant_due_date_idx" on "ap_invoice" ("tenant_id", "due_date");`);
    this.addSql(`create index "ap_invoice_tenant_invoice_date_idx" on "ap_invoice" ("tenant_id", "invoice_date");`);
    this.addSql(`create index "ap_invoice_tenant_classification_method_idx" on "ap_invoice" ("tenant_id", "classification_method");`);
    this.addSql(`create index "ap_invoice_tenant_payment_status_idx" on "ap_invoice" ("tenant_id", "payment_status");`);
    this.addSql(`create index "ap_invoice_tenant_status_idx" on "ap_invoice" ("tenant_id", "status");`);
    this.addSql(`create index "ap_invoice_tenant_currency_idx" on "ap_invoice" ("tenant_id", "currency");`);
    this.addSql(`create index "ap_invoice_tenant_subsidiary_id_idx" on "ap_invoice" ("tenant_id", "subsidiary_id");`);
    this.addSql(`create index "ap_invoice_tenant_supplier_name_idx" on "ap_invoice" ("tenant_id", "supplier_name");`);
    this.addSql(`create index "ap_invoice_tenant_reference_number_idx" on "ap_invoice" ("tenant_id", "reference_number");`);
    this.addSql(`create index "ap_invoice_tenant_invoice_number_idx" on "ap_invoice" ("tenant_id", "invoice_number");`);
    this.addSql(`alter table "ap_invoice" add constraint "ap_invoice_tenant_supplier_id_invoice_number_uq" unique ("tenant_id", "supplier_id", "invoice_number");`);

    this.addSql(`create table "audit_log" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "entity" text not null, "entity_id" uuid not null, "action" text not null, "data" jsonb null, constraint "audit_log_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "audit_log_tenant_entity_idx" on "audit_log" ("tenant_id", "entity", "entity_id");`);

    this.addSql(`create table "booking" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "widget_config_id" uuid null, "lead_id" uuid null, "activity_id" uuid null, "assigned_employee_id" uuid null, "assigned_subsidiary_id" uuid null, "calendar_event_id" text null, "cancellation_token" text not null, "status" text check ("status" in ('CONFIRMED', 'PENDING', 'CANCELLED', 'COMPLETED', 'NO_SHOW')) not null default 'CONFIRMED', "start_time" timestamptz not null, "end_time" timestamptz null, "duration" int null, "timezone" text null, "first_name" text null, "last_name" text null, "company_name" text null, "email" text null, "phone" text null, "street" text null, "house_number" text null, "postal_code" text null, "city" text null, "message" text null, constraint "booking_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "booking_tenant_status_idx" on "booking" ("tenant_id", "status");`);
    this.addSql(`create index "booking_tenant_start_time_idx" on "booking" ("tenant_id", "start_time");`);
    this.addSql(`create index "booking_tenant_end_time_idx" on "booking" ("tenant_id", "end_time");`);
    this.addSql(`create index "booking_tenant_first_name_idx" on "booking" ("tenant_id", "first_name");`);
    this.addSql(`create index "booking_tenant_last_name_idx" on "booking" ("tenant_id", "last_name");`);
    this.addSql(`create index "booking_tenant_email_idx" on "booking" ("tenant_id", "email");`);
    this.addSql(`create index "booking_tenant_company_name_idx" on "booking" ("tenant_id", "company_name");`);
    this.addSql(`create index "booking_tenant_city_idx" on "booking" ("tenant_id", "city");`);
    this.addSql(`create index "booking_tenant_postal_code_idx" on "booking" ("tenant_id", "postal_code");`);
    this.addSql(`create index "booking_tenant_lead_id_idx" on "booking" ("tenant_id", "lead_id");`);
    this.addSql(`create index "booking_tenant_activity_id_idx" on "booking" ("tenant_id", "activity_id");`);
    this.addSql(`create index "booking_tenant_assigned_employee_id_idx" on "booking" ("tenant_id", "assigned_employee_id");`);
    this.addSql(`create index "booking_tenant_assigned_subsidiary_id_idx" on "booking" ("tenant_id", "assigned_subsidiary_id");`);
    this.addSql(`create index "booking_tenant_widget_config_id_start_time_idx" on "booking" ("tenant_id", "widget_config_id", "start_time");`);

    this.addSql(`create table "concept" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "name" text not null, "building_type" text check ("building_type" in ('ROW', 'DETACHED', 'SEMI_DETACHED', 'CORNER', 'APARTMENT', 'BUNGALOW')) null, constraint "concept_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "concept_tenant_name_idx" on "concept" ("tenant_id", "name");`);

    this.addSql(`create table "configurator_type" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "name" text not null, "color" text null, "concept" text null, "element_name_prefix" text null, "variant_suffix_format" text null, "compensate_nulpunt" boolean not null default false, "hide_base_option_in_name" boolean not null default false, "enforced_categories" text[] not null, "preview_blob" jsonb null, "base_variables" jsonb not null, "variables" jsonb not null, "options" jsonb not null, "models" jsonb not null, "mass_model" jsonb not null, "restrictions" jsonb not null, "static_models" jsonb not null, "views" jsonb not null, "total_static_models" int not null default 0, "total_static_models_complete" int not null default 0, "total_static_models_file_size" bigint not null default 0, "total_static_models_glb_in_db" int not null default 0, "total_static_models_in_db" int not null default 0, "total_static_models_rvt_in_db" int not null default 0, constraint "configurator_type_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "configurator_type_tenant_concept_idx" on "configurator_type" ("tenant_id", "concept");`);
    this.addSql(`create index "configurator_type_tenant_name_idx" on "configurator_type" ("tenant_id", "name");`);

    this.addSql(`create table "contact_form_widget_config" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "name" text not null, "slug" text not null, "description" text null, "confirmation_message" text null, "assigned_team_lead_id" uuid null, "active" boolean not null default true, "fields" jsonb not null, constraint "contact_form_widget_config_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "contact_form_widget_config_tenant_name_idx" on "contact_form_widget_config" ("tenant_id", "name");`);
    this.addSql(`create index "contact_form_widget_config_tenant_active_idx" on "contact_form_widget_config" ("tenant_id", "active");`);
    this.addSql(`create index "contact_form_widget_config_tenant_assigned_team_lead_id_idx" on "contact_form_widget_config" ("tenant_id", "assigned_team_lead_id");`);
    this.addSql(`alter table "contact_form_widget_config" add constraint "contact_form_widget_config_tenant_slug_uq" unique ("tenant_id", "slug");`);

    this.addSql(`create table "coverage_job" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "name" text null, "description" text null, "message" text null, "current_agent_id" text null, "worker_name" text null, "type_id" uuid not null, "static_model_id" text not null, "status" text check ("status" in ('PENDING', 'RUNNING', 'DONE', 'FAILED')) not null default 'PENDING', "priority" text check ("priority" in ('URGENT', 'HIGH', 'NORMAL', 'LOW')) not null default 'LOW', "progress" numeric(5,2) not null default 0, "retries" int not null default 0, "run_after" timestamptz not null, "started" timestamptz null, "completed" timestamptz null, "assets" jsonb not null, constraint "coverage_job_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "coverage_job_tenant_name_idx" on "coverage_job" ("tenant_id", "name");`);
    this.addSql(`create index "coverage_job_tenant_completed_idx" on "coverage_job" ("tenant_id", "completed");`);
    this.addSql(`create index "coverage_job_tenant_started_idx" on "coverage_job" ("tenant_id", "started");`);
    this.addSql(`create index "coverage_job_tenant_run_after_idx" on "coverage_job" ("tenant_id", "run_after");`);
    this.addSql(`create index "coverage_job_tenant_priority_idx" on "coverage_job" ("tenant_id", "priority");`);
    this.addSql(`create index "coverage_job_tenant_status_idx" on "coverage_job" ("tenant_id", "status");`);
    this.addSql(`create index "coverage_job_tenant_type_id_idx" on "coverage_job" ("tenant_id", "type_id");`);

    this.addSql(`create table "customer" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "name" text not null, "email" text null, "phone" text null, constraint "customer_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "customer_tenant_name_idx" on "customer" ("tenant_id", "name");`);

    this.addSql(`create table "employee" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "first_name" text null, "last_name" text null, "email" text null, "job_title" text null, "department" text null, "avatar" text null, "phone" text null, "user_id" uuid null, constraint "employee_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "employee_tenant_email_idx" on "employee" ("tenant_id", "email");`);

    this.addSql(`create table "epic" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "name" text not null, "description" text null, "color" text null, "owner_id" uuid null, "project_id" uuid null, "priority" int null, "status" text check ("status" in ('PLANNING', 'IN_PROGRESS', 'ON_HOLD', 'COMPLETED', 'CANCELLED')) not null default 'PLANNING', "tags" text[] not null, "target_start_date" date null, "target_end_date" date null, constraint "epic_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "epic_tenant_status_idx" on "epic" ("tenant_id", "status");`);
    this.addSql(`create index "epic_tenant_project_id_idx" on "epic" ("tenant_id", "project_id");`);
    this.addSql(`create index "epic_tenant_owner_id_idx" on "epic" ("tenant_id", "owner_id");`);
    this.addSql(`create index "epic_tenant_name_idx" on "epic" ("tenant_id", "name");`);

    this.addSql(`create table "feature" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "name" text not null, "description" text null, "epic_id" uuid null, "priority" text check ("priority" in ('LOW', 'MEDIUM', 'HIGH', 'CRITICAL')) null, "status" text check ("status" in ('BACKLOG', 'READY', 'IN_PROGRESS', 'DONE')) not null default 'BACKLOG', "tags" text[] not null, "estimated_points" int null, constraint "feature_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "feature_tenant_priority_idx" on "feature" ("tenant_id", "priority");`);
    this.addSql(`create index "feature_tenant_status_idx" on "feature" ("tenant_id", "status");`);
    this.addSql(`create index "feature_tenant_epic_id_idx" on "feature" ("tenant_id", "epic_id");`);
    this.addSql(`create index "feature_tenant_name_idx" on "feature" ("tenant_id", "name");`);

    this.addSql(`create table "hr_project" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "name" text not null, "code" text null, "description" text null, "color" text null, "client_id" uuid null, "lead_id" uuid null, "status" text check ("status" in ('PLANNING', 'ACTIVE', 'ON_HOLD', 'COMPLETED', 'ARCHIVED')) not null default 'PLANNING', "tags" text[] not null, "team_member_ids" text[] not null, "start_date" date null, "end_date" date null, "default_sprint_duration_days" int null, "hourly_rate" numeric(14,2) null, "picture" jsonb null, constraint "hr_project_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "hr_project_tenant_status_idx" on "hr_project" ("tenant_id", "status");`);
    this.addSql(`create index "hr_project_tenant_lead_id_idx" on "hr_project" ("tenant_id", "lead_id");`);
    this.addSql(`create index "hr_project_tenant_code_idx" on "hr_project" ("tenant_id", "code");`);
    this.addSql(`create index "hr_project_tenant_name_idx" on "hr_project" ("tenant_id", "name");`);

    this.addSql(`create table "inbound_email" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "status" text check ("status" in ('NEW', 'READ', 'ARCHIVED', 'REPLIED')) not null default 'NEW', "received_at" timestamptz not null, "subject" text null, "body_html" text null, "body_text" text null, "from_email" text null, "from_name" text null, "recipients" text[] not null, "cc" text[] not null, "conversation_id" text null, "graph_message_id" text null, "in_reply_to" text null, "internet_message_id" text null, "parent_communication_id" uuid null, "related_entity_id" uuid null, "related_entity_type" text null, constraint "inbound_email_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "inbound_email_tenant_subject_idx" on "inbound_email" ("tenant_id", "subject");`);
    this.addSql(`create index "inbound_email_tenant_from_email_idx" on "inbound_email" ("tenant_id", "from_email");`);
    this.addSql(`create index "inbound_email_tenant_from_name_idx" on "inbound_email" ("tenant_id", "from_name");`);
    this.addSql(`create index "inbound_email_tenant_status_idx" on "inbound_email" ("tenant_id", "status");`);
    this.addSql(`create index "inbound_email_tenant_received_at_idx" on "inbound_email" ("tenant_id", "received_at");`);
    this.addSql(`create index "inbound_email_tenant_conversation_id_idx" on "inbound_email" ("tenant_id", "conversation_id");`);
    this.addSql(`create index "inbound_email_tenant_parent_communication_id_idx" on "inbound_email" ("tenant_id", "parent_communication_id");`);
    this.addSql(`create index "inbound_email_tenant_related_entity_id_idx" on "inbound_email" ("tenant_id", "related_entity_id");`);
    this.addSql(`create index "inbound_email_tenant_related_entity_type_idx" on "inbound_email" ("tenant_id", "related_entity_type");`);
    this.addSql(`create index "inbound_email_tenant_recipients_idx" on "inbound_email" ("tenant_id", "recipients");`);
    this.addSql(`alter table "inbound_email" add constraint "inbound_email_tenant_internet_message_id_uq" unique ("tenant_id", "internet_message_id");`);

    this.addSql(`create table "invoice" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "invoice_number" text null, "status" text check ("status" in ('DRAFT', 'SENT', 'PARTIALLY_PAID', 'PAID', 'OVERDUE', 'CANCELLED')) null, "type" text check ("type" in ('MANUAL', 'RECURRING', 'CREDIT_NOTE', 'DEPOSIT')) null, "client_id" uuid null, "contact_email" text null, "currency" text null, "mail_body" text null, "milestone_id" uuid null, "note" text null, "opportunity_id" uuid null, "payment_reference" text null, "reminder_body" text null, "sales_order_id" uuid null, "subsidiary_id" uuid null, "invoice_date" timestamptz null, "due_date" timestamptz null, "date_paid" timestamptz null, "overdue_notified_at" timestamptz null, "payment_term_days" int null, "paid" numeric(14,2) null, "paid_excluding_tax" numeric(14,2) null, "total" numeric(14,2) null, "total_excluding_tax" numeric(14,2) null, "total_tax" numeric(14,2) null, "total_with_tax" numeric(14,2) null, "sent_mails" text[] not null, "attachments" jsonb not null, "pdf" jsonb null, "recurring_agreement" jsonb null, "reminders" jsonb not null, "rows" jsonb not null, "transactions" jsonb not null, constraint "invoice_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "invoice_tenant_payment_reference_idx" on "invoice" ("tenant_id", "payment_reference");`);
    this.addSql(`create index "invoice_tenant_contact_email_idx" on "invoice" ("tenant_id", "contact_email");`);
    this.addSql(`create index "invoice_tenant_total_idx" on "invoice" ("tenant_id", "total");`);
    this.addSql(`create index "invoice_tenant_currency_idx" on "invoice" ("tenant_id", "currency");`);
    this.addSql(`create index "invoice_tenant_subsidiary_id_idx" on "invoice" ("tenant_id", "subsidiary_id");`);
    this.addSql(`create index "invoice_tenant_opportunity_id_idx" on "invoice" ("tenant_id", "opportunity_id");`);
    this.addSql(`create index "invoice_tenant_client_id_idx" on "invoice" ("tenant_id", "client_id");`);
    this.addSql(`create index "invoice_tenant_due_date_idx" on "invoice" ("tenant_id", "due_date");`);
    this.addSql(`create index "invoice_tenant_invoice_date_idx" on "invoice" ("tenant_id", "invoice_date");`);
    this.addSql(`create index "invoice_tenant_type_idx" on "invoice" ("tenant_id", "type");`);
    this.addSql(`create index "invoice_tenant_status_idx" on "invoice" ("tenant_id", "status");`);
    this.addSql(`alter table "invoice" add constraint "invoice_tenant_invoice_number_uq" unique ("tenant_id", "invoice_number");`);

    this.addSql(`create table "lead" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "status" text check ("status" in ('NEW', 'CONTACTED', 'QUALIFIED', 'PROPOSAL', 'NEGOTIATION', 'WON', 'LOST', 'DISQUALIFIED')) not null default 'NEW', "first_name" text null, "last_name" text null, "company_name" text null, "company_website" text null, "email" text null, "phone" text null, "industry" text null, "instagram_handle" text null, "interest" text null, "message" text null, "next_action" text null, "next_action_due_date" timestamptz null, "note" text null, "page_url" text null, "preferred_language" text null, "qualification_notes" text null, "qualified_by" uuid null, "qualified_date" timestamptz null, "referrer_url" text null, "source" text null, "source_detail" text null, "utm_campaign" text null, "utm_content" text null, "utm_medium" text null, "utm_source" text null, "utm_term" text null, "has_accepted_quote" boolean not null default false, "address" jsonb null, "customer_id" uuid null, "opportunity_id" uuid null, "owner_id" uuid null, "subsidiary_id" uuid null, constraint "lead_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "lead_tenant_first_name_idx" on "lead" ("tenant_id", "first_name");`);
    this.addSql(`create index "lead_tenant_last_name_idx" on "lead" ("tenant_id", "last_name");`);
    this.addSql(`create index "lead_tenant_company_name_idx" on "lead" ("tenant_id", "company_name");`);
    this.addSql(`create index "lead_tenant_email_idx" on "lead" ("tenant_id", "email");`);
    this.addSql(`create index "lead_tenant_status_idx" on "lead" ("tenant_id", "status");`);
    this.addSql(`create index "lead_tenant_source_idx" on "lead" ("tenant_id", "source");`);
    this.addSql(`create index "lead_tenant_industry_idx" on "lead" ("tenant_id", "industry");`);
    this.addSql(`create index "lead_tenant_customer_id_idx" on "lead" ("tenant_id", "customer_id");`);
    this.addSql(`create index "lead_tenant_opportunity_id_idx" on "lead" ("tenant_id", "opportunity_id");`);
    this.addSql(`create index "lead_tenant_owner_id_idx" on "lead" ("tenant_id", "owner_id");`);
    this.addSql(`create index "lead_tenant_subsidiary_id_idx" on "lead" ("tenant_id", "subsidiary_id");`);
    this.addSql(`create index "lead_tenant_qualified_date_idx" on "lead" ("tenant_id", "qualified_date");`);
    this.addSql(`create index "lead_tenant_next_action_due_date_idx" on "lead" ("tenant_id", "next_action_due_date");`);
    this.addSql(`create index "lead_tenant_has_accepted_quote_idx" on "lead" ("tenant_id", "has_accepted_quote");`);

    this.addSql(`create table "notification" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "user_id" uuid not null, "title" text null, "body" text null, "sender" text null, "category" text check ("category" in ('ERP', 'CRM', 'HR', 'SYSTEM')) not null default 'SYSTEM', "notification_type" text check ("notification_type" in ('ALERT', 'INFO', 'WARNING', 'TASK', 'MESSAGE')) not null default 'INFO', "scope" text null, "action_url" text null, "metadata" jsonb null, "read" boolean not null default false, "email_sent" boolean not null default false, "email_sent_at" timestamptz null, "delivered" boolean not null default true, constraint "notification_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "notification_tenant_created_idx" on "notification" ("tenant_id", "created");`);
    this.addSql(`create index "notification_tenant_title_idx" on "notification" ("tenant_id", "title");`);
    this.addSql(`create index "notification_tenant_sender_idx" on "notification" ("tenant_id", "sender");`);
    this.addSql(`create index "notification_tenant_scope_idx" on "notification" ("tenant_id", "scope");`);
    this.addSql(`create index "notification_tenant_read_idx" on "notification" ("tenant_id", "read");`);
    this.addSql(`create index "notification_tenant_notification_type_idx" on "notification" ("tenant_id", "notification_type");`);
    this.addSql(`create index "notification_tenant_category_idx" on "notification" ("tenant_id", "category");`);
    this.addSql(`create index "notification_tenant_user_id_idx" on "notification" ("tenant_id", "user_id");`);

    this.addSql(`create table "notification_settings" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "user_id" uuid not null, "digest_frequency" text check ("digest_frequency" in ('OFF', 'DAILY', 'WEEKLY')) not null default 'OFF', "disabled_scopes" text[] not null, "enabled_categories" text[] not null, "in_app_notifications_enabled" boolean not null default true, "push_notifications_enabled" boolean not null default true, constraint "notification_settings_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`alter table "notification_settings" add constraint "notification_settings_tenant_user_id_uq" unique ("tenant_id", "user_id");`);

    this.addSql(`create table "opportunity" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "name" text not null, "value" numeric(14,2) null, "customer_id" uuid null, constraint "opportunity_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "opportunity_tenant_customer_idx" on "opportunity" ("tenant_id", "customer_id");`);

    this.addSql(`create table "product" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "name" text not null, "brand" text null, "category" text null, "product_type" text check ("product_type" in ('RAW_MATERIAL', 'SEMI_FINISHED', 'FINISHED_GOOD', 'SERVICE')) null, "unit_price" numeric(14,4) null, "sales_price" numeric(14,4) null, "currency" text null, "image_blob_id" text null, "base_unit" jsonb null, "units_of_measurement" jsonb not null, "image_assets" jsonb not null, constraint "product_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "product_tenant_name_idx" on "product" ("tenant_id", "name");`);

    this.addSql(`create table "push_token" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "token" text not null, "user_id" uuid not null, "platform" text check ("platform" in ('IOS', 'ANDROID', 'WEB')) not null, "device_name" text null, "app_version" text null, "last_used" timestamptz null, constraint "push_token_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "push_token_tenant_user_id_idx" on "push_token" ("tenant_id", "user_id");`);
    this.addSql(`alter table "push_token" add constraint "push_token_tenant_token_uq" unique ("tenant_id", "token");`);

    this.addSql(`create table "sent_mail" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "recipient" text not null, "subject" text null, "opened" boolean not null default false, "opened_at" timestamptz null, constraint "sent_mail_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "sent_mail_tenant_recipient_idx" on "sent_mail" ("tenant_id", "recipient");`);
    this.addSql(`create index "sent_mail_tenant_subject_idx" on "sent_mail" ("tenant_id", "subject");`);
    this.addSql(`create index "sent_mail_tenant_opened_idx" on "sent_mail" ("tenant_id", "opened");`);
    this.addSql(`create index "sent_mail_tenant_opened_at_idx" on "sent_mail" ("tenant_id", "opened_at");`);

    this.addSql(`create table "stock_batch" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "inventory_id" uuid not null, "site_id" uuid not null, "product_id" uuid not null, "location_id" text null, "batch_number" text null, "quantity" numeric(14,4) not null default 0, "expiration_date" timestamptz null, "production_date" timestamptz null, "last_stock_date" timestamptz null, "original_purchase_order_id" text null, "stock_source" text check ("stock_source" in ('PURCHASE_ORDER', 'PRODUCTION', 'ADJUSTMENT', 'TRANSFER', 'RETURN')) null, "uom_split" jsonb not null, "unit_price" numeric(14,4) not null default 0, constraint "stock_batch_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "stock_batch_tenant_unit_price_idx" on "stock_batch" ("tenant_id", "site_id", "unit_price");`);
    this.addSql(`create index "stock_batch_tenant_quantity_idx" on "stock_batch" ("tenant_id", "site_id", "quantity");`);
    this.addSql(`create index "stock_batch_tenant_production_date_idx" on "stock_batch" ("tenant_id", "site_id", "production_date");`);
    this.addSql(`create index "stock_batch_tenant_last_stock_date_idx" on "stock_batch" ("tenant_id", "site_id", "last_stock_date");`);
    this.addSql(`create index "stock_batch_tenant_expiration_date_idx" on "stock_batch" ("tenant_id", "site_id", "expiration_date");`);
    this.addSql(`create index "stock_batch_tenant_location_id_idx" on "stock_batch" ("tenant_id", "site_id", "location_id");`);
    this.addSql(`create index "stock_batch_tenant_batch_number_idx" on "stock_batch" ("tenant_id", "site_id", "batch_number");`);
    this.addSql(`create index "stock_batch_tenant_site_product_idx" on "stock_batch" ("tenant_id", "site_id", "product_id");`);
    this.addSql(`create index "stock_batch_tenant_inventory_id_idx" on "stock_batch" ("tenant_id", "inventory_id");`);

    this.addSql(`create table "stock_inventory" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "product_id" uuid not null, "site_id" uuid not null, "subsidiary_id" uuid null, "status" text check ("status" in ('IN_STOCK', 'LOW_STOCK', 'OUT_OF_STOCK')) not null default 'OUT_OF_STOCK', "total_quantity" numeric(14,4) not null default 0, "reserved_quantity" numeric(14,4) not null default 0, "in_transit_quantity" numeric(14,4) not null default 0, "available_quantity" numeric(14,4) not null default 0, "minimum" numeric(14,4) null, "maximum" numeric(14,4) null, "unit_price" numeric(14,4) not null default 0, "in_transit_stock" jsonb not null, "reservations" jsonb not null, constraint "stock_inventory_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "stock_inventory_tenant_total_quantity_idx" on "stock_inventory" ("tenant_id", "total_quantity");`);
    this.addSql(`create index "stock_inventory_tenant_available_quantity_idx" on "stock_inventory" ("tenant_id", "available_quantity");`);
    this.addSql(`create index "stock_inventory_tenant_status_idx" on "stock_inventory" ("tenant_id", "status");`);
    this.addSql(`create index "stock_inventory_tenant_subsidiary_id_idx" on "stock_inventory" ("tenant_id", "subsidiary_id");`);
    this.addSql(`create index "stock_inventory_tenant_product_id_idx" on "stock_inventory" ("tenant_id", "product_id");`);
    this.addSql(`alter table "stock_inventory" add constraint "stock_inventory_tenant_site_product_uq" unique ("tenant_id", "site_id", "product_id");`);

    this.addSql(`create table "stock_site" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "name" text not null, "subsidiary_id" uuid null, constraint "stock_site_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "stock_site_tenant_subsidiary_idx" on "stock_site" ("tenant_id", "subsidiary_id");`);

    this.addSql(`create table "stock_transfer" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "transfer_number" text not null, "note" text null, "stock_site_id" uuid null, "destination_stock_site_id" uuid null, "subsidiary_id" uuid null, "incoming_stock_transfer_id" uuid null, "incoming_stock_transfer_status" text check ("incoming_stock_transfer_status" in ('EXPECTED', 'PARTIALLY_RECEIVED', 'RECEIVED', 'CANCELLED')) null, "status" text check ("status" in ('DRAFT', 'REQUESTED', 'APPROVED', 'PICKING', 'SHIPPED', 'PARTIALLY_DELIVERED', 'DELIVERED', 'CANCELLED')) not null default 'DRAFT', "priority" text check ("priority" in ('LOW', 'MEDIUM', 'HIGH', 'URGENT')) null default 'LOW', "delivery_method" text check ("delivery_method" in ('REGULAR', 'EXPRESS', 'PICKUP')) null default 'REGULAR', "delivery_date" timestamptz null, "picklist_ids" text[] not null, "batch_allocations" jsonb not null, "products" jsonb not null, "reserved_products" jsonb not null, "is_fully_cancelled" boolean not null default false, "cancelled_products" jsonb not null, "delivered_products" jsonb not null, "returned_products" jsonb not null, constraint "stock_transfer_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "stock_transfer_tenant_created_idx" on "stock_transfer" ("tenant_id", "created");`);
    this.addSql(`create index "stock_transfer_tenant_delivery_date_idx" on "stock_transfer" ("tenant_id", "delivery_date");`);
    this.addSql(`create index "stock_transfer_tenant_subsidiary_id_idx" on "stock_transfer" ("tenant_id", "subsidiary_id");`);
    this.addSql(`create index "stock_transfer_tenant_destination_stock_site_id_idx" on "stock_transfer" ("tenant_id", "destination_stock_site_id");`);
    this.addSql(`create index "stock_transfer_tenant_stock_site_id_idx" on "stock_transfer" ("tenant_id", "stock_site_id");`);
    this.addSql(`create index "stock_transfer_tenant_status_idx" on "stock_transfer" ("tenant_id", "status");`);
    this.addSql(`alter table "stock_transfer" add constraint "stock_transfer_tenant_transfer_number_uq" unique ("tenant_id", "transfer_number");`);

    this.addSql(`create table "subsidiary" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "name" text not null, "color" text null, constraint "subsidiary_pkey" primary key ("tenant_id", "id"));`);

    this.addSql(`create table "supplier" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "name" text not null, "email" text null, constraint "supplier_pkey" primary key ("tenant_id", "id"));`);

    this.addSql(`create table "task" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "title" text not null, "status" text check ("status" in ('TODO', 'IN_PROGRESS', 'DONE')) not null default 'TODO', "feature_id" uuid null, "epic_id" uuid null, "project_id" uuid null, "assignee_id" uuid null, constraint "task_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "task_tenant_assignee_id_idx" on "task" ("tenant_id", "assignee_id");`);
    this.addSql(`create index "task_tenant_project_id_idx" on "task" ("tenant_id", "project_id");`);
    this.addSql(`create index "task_tenant_epic_id_idx" on "task" ("tenant_id", "epic_id");`);
    this.addSql(`create index "task_tenant_feature_id_idx" on "task" ("tenant_id", "feature_id");`);
    this.addSql(`create index "task_tenant_status_idx" on "task" ("tenant_id", "status");`);
    this.addSql(`create index "task_tenant_title_idx" on "task" ("tenant_id", "title");`);

    this.addSql(`create table "tax_percentage" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "percentage" numeric(9,4) not null, constraint "tax_percentage_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "tax_percentage_tenant_pct_idx" on "tax_percentage" ("tenant_id", "percentage");`);

    this.addSql(`create table "team" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "name" text not null, "description" text null, "color" text null, "daily_capacity" int null, "member_ids" text[] not null, "status" text check ("status" in ('ACTIVE', 'ARCHIVED')) not null default 'ACTIVE', constraint "team_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "team_tenant_status_idx" on "team" ("tenant_id", "status");`);
    this.addSql(`create index "team_tenant_name_idx" on "team" ("tenant_id", "name");`);

    this.addSql(`create table "tenant" ("id" uuid not null, "name" text not null, "domain" text null, "active" boolean not null default true, "owner" text null, "logo_url" text null, "logo" jsonb null, "light_theme_logo" jsonb null, "subscription" text check ("subscription" in ('TRIAL', 'ACTIVE', 'PAST_DUE', 'CANCELLED')) not null default 'TRIAL', "subscription_expires" timestamptz null, "billing_info" jsonb null, "scopes" jsonb not null, "settings" jsonb not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, constraint "tenant_pkey" primary key ("id"));`);

    this.addSql(`create table "tenant_role" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "name" text not null, "description" text null, "permissions" jsonb not null, constraint "tenant_role_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`alter table "tenant_role" add constraint "tenant_role_tenant_name_uq" unique ("tenant_id", "name");`);

    this.addSql(`create table "tenant_sequence" ("tenant_id" uuid not null, "name" text not null, "value" bigint not null, constraint "tenant_sequence_pkey" primary key ("tenant_id", "name"));`);

    this.addSql(`create table "type_product_coverage" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "type_id" uuid not null, "product_name" text null, "linked_product_id" uuid null, "static_model_tree_id" text null, "variant_id" text null, "complete" boolean not null default false, "glb_complete" boolean not null default false, "rvt_complete" boolean not null default false, "model_type" text check ("model_type" in ('CONCEPT', 'VARIANT', 'PROJECT')) null, "parameters" jsonb not null, "project_ids" text[] not null, "assets" jsonb not null, "total_file_size" bigint not null default 0, constraint "type_product_coverage_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "type_product_coverage_tenant_total_file_size_idx" on "type_product_coverage" ("tenant_id", "total_file_size");`);
    this.addSql(`create index "type_product_coverage_tenant_rvt_complete_idx" on "type_product_coverage" ("tenant_id", "rvt_complete");`);
    this.addSql(`create index "type_product_coverage_tenant_glb_complete_idx" on "type_product_coverage" ("tenant_id", "glb_complete");`);
    this.addSql(`create index "type_product_coverage_tenant_complete_idx" on "type_product_coverage" ("tenant_id", "complete");`);
    this.addSql(`create index "type_product_coverage_tenant_model_type_idx" on "type_product_coverage" ("tenant_id", "model_type");`);
    this.addSql(`create index "type_product_coverage_tenant_variant_id_idx" on "type_product_coverage" ("tenant_id", "variant_id");`);
    this.addSql(`create index "type_product_coverage_tenant_linked_product_id_idx" on "type_product_coverage" ("tenant_id", "linked_product_id");`);
    this.addSql(`create index "type_product_coverage_tenant_product_name_idx" on "type_product_coverage" ("tenant_id", "product_name");`);
    this.addSql(`alter table "type_product_coverage" add constraint "type_product_coverage_variant_uq" unique ("tenant_id", "type_id", "static_model_tree_id", "variant_id");`);

    this.addSql(`create table "app_user" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "email" text not null, "first_name" text null, "last_name" text null, "language" text null, "has_full_access" boolean not null default false, "verified" boolean not null default false, "last_login" timestamptz null, "status" text not null default 'ACTIVE', "roles" text[] not null, "project_access" text[] not null, "subsidiary_access" text[] not null, "profile" jsonb null, constraint "app_user_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "app_user_tenant_status_idx" on "app_user" ("tenant_id", "status");`);
    this.addSql(`create index "app_user_tenant_subsidiary_access_idx" on "app_user" ("tenant_id", "subsidiary_access");`);
    this.addSql(`create index "app_user_tenant_project_access_idx" on "app_user" ("tenant_id", "project_access");`);
    this.addSql(`create index "app_user_tenant_roles_idx" on "app_user" ("tenant_id", "roles");`);
    this.addSql(`create index "app_user_tenant_has_full_access_idx" on "app_user" ("tenant_id", "has_full_access");`);
    this.addSql(`create index "app_user_tenant_last_name_idx" on "app_user" ("tenant_id", "last_name");`);
    this.addSql(`create index "app_user_tenant_first_name_idx" on "app_user" ("tenant_id", "first_name");`);
    this.addSql(`alter table "app_user" add constraint "app_user_tenant_email_uq" unique ("tenant_id", "email");`);

    this.addSql(`create table "waste_record" ("tenant_id" uuid not null, "id" uuid not null, "created" timestamptz null, "created_by" text null, "updated" timestamptz null, "updated_by" text null, "version" int not null default 1, "events" jsonb not null, "approved_by" text null, "product_id" uuid not null, "reason" text null, "shift_id" uuid null, "stock_site_id" uuid null, "subsidiary_id" uuid null, "quantity" numeric(14,4) not null, "deduct_raw_materials" boolean not null default false, "image" jsonb null, constraint "waste_record_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "waste_record_tenant_created_idx" on "waste_record" ("tenant_id", "created");`);
    this.addSql(`create index "waste_record_tenant_reason_idx" on "waste_record" ("tenant_id", "reason");`);
    this.addSql(`create index "waste_record_tenant_subsidiary_id_idx" on "waste_record" ("tenant_id", "subsidiary_id");`);
    this.addSql(`create index "waste_record_tenant_stock_site_id_idx" on "waste_record" ("tenant_id", "stock_site_id");`);
    this.addSql(`create index "waste_record_tenant_shift_id_idx" on "waste_record" ("tenant_id", "shift_id");`);
    this.addSql(`create index "waste_record_tenant_product_id_idx" on "waste_record" ("tenant_id", "product_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "activity" cascade;`);

    this.addSql(`drop table if exists "ap_invoice" cascade;`);

    this.addSql(`drop table if exists "audit_log" cascade;`);

    this.addSql(`drop table if exists "booking" cascade;`);

    this.addSql(`drop table if exists "concept" cascade;`);

    this.addSql(`drop table if exists "configurator_type" cascade;`);

    this.addSql(`drop table if exists "contact_form_widget_config" cascade;`);

    this.addSql(`drop table if exists "coverage_job" cascade;`);

    this.addSql(`drop table if exists "customer" cascade;`);

    this.addSql(`drop table if exists "employee" cascade;`);

    this.addSql(`drop table if exists "epic" cascade;`);

    this.addSql(`drop table if exists "feature" cascade;`);

    this.addSql(`drop table if exists "hr_project" cascade;`);

    this.addSql(`drop table if exists "inbound_email" cascade;`);

    this.addSql(`drop table if exists "invoice" cascade;`);

    this.addSql(`drop table if exists "lead" cascade;`);

    this.addSql(`drop table if exists "notification" cascade;`);

    this.addSql(`drop table if exists "notification_settings" cascade;`);

    this.addSql(`drop table if exists "opportunity" cascade;`);

    this.addSql(`drop table if exists "product" cascade;`);

    this.addSql(`drop table if exists "push_token" cascade;`);

    this.addSql(`drop table if exists "sent_mail" cascade;`);

    this.addSql(`drop table if exists "stock_batch" cascade;`);

    this.addSql(`drop table if exists "stock_inventory" cascade;`);

    this.addSql(`drop table if exists "stock_site" cascade;`);

    this.addSql(`drop table if exists "stock_transfer" cascade;`);

    this.addSql(`drop table if exists "subsidiary" cascade;`);

    this.addSql(`drop table if exists "supplier" cascade;`);

    this.addSql(`drop table if exists "task" cascade;`);

    this.addSql(`drop table if exists "tax_percentage" cascade;`);

    this.addSql(`drop table if exists "team" cascade;`);

    this.addSql(`drop table if exists "tenant" cascade;`);

    this.addSql(`drop table if exists "tenant_role" cascade;`);

    this.addSql(`drop table if exists "tenant_sequence" cascade;`);

    this.addSql(`drop table if exists "type_product_coverage" cascade;`);

    this.addSql(`drop table if exists "app_user" cascade;`);

    this.addSql(`drop table if exists "waste_record" cascade;`);
  }

}
