-- Distributes the service's tables on Citus, in Citus's multi-tenant model: every table of
-- tenant data is distributed by tenant_id and co-located with the tenant table, so each request,
-- which filters on one tenant, runs on one node, and the composite foreign keys
-- (tenant_id, x_id) -> x (tenant_id, id) stay enforceable between co-located shards.
--
-- Not run by default. Run it once, as the tables' owner, on the coordinator, after the service's
-- migrations have built the schema (start the service once against the coordinator: it migrates
-- at start-up, then stop it), and before opening the service to traffic:
--   psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -f scripts/citus/distribute.sql
-- create_distributed_table copies rows already present into the shards.
--
-- Global tables: there are none that tenant tables point at. mikro_orm_migrations (the migration
-- log, written by migrations only) stays a local table of the coordinator, where migrations run;
-- so does job_run (the schedulers' claims: one row per job and period, deployment-wide jobs with
-- no tenant among them, claimed through its unique key across the tenants).
--
-- Order: a table comes after every table its foreign keys point at, so each key is created
-- between tables that are already co-located. docs/integrity.md says what was not tried.
-- test/security/citus-readiness.test.ts checks this file against the real catalog.

begin;
create extension if not exists citus;
-- Foreign keys between tables distributed in one transaction need Citus's sequential mode.
set local citus.multi_shard_modify_mode to 'sequential';

-- The tenants: one row per tenant, distributed by its id, the value every other table's
-- tenant_id holds.
select create_distributed_table('tenant', 'id');
-- The per-tenant version of its users and roles (the caller cache's freshness check): one row
-- per tenant, keyed (like the tenant itself) by the tenant's id.
select create_distributed_table('caller_version', 'id', colocate_with => 'tenant');
-- Whether some service process holds live subscriptions in the tenant (the outbox's NOTIFY).
select create_distributed_table('live_tenant', 'id', colocate_with => 'tenant');

-- Tenant data.
select create_distributed_table('app_user', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('api_key', 'tenant_id', colocate_with => 'tenant');
-- An issuer URL names one tenant of the deployment, a unique key Citus cannot keep across
-- shards (its key lacks the distribution column). Without it the service still acts safely: a
-- token whose issuer more than one tenant registered is refused in every tenant
-- (src/auth/issuers.ts), so two tenants racing to add one issuer lock each other out rather than
-- share it; one removes it and the other's sign-ins work.
alter table trusted_issuer drop constraint trusted_issuer_issuer_uq;
select create_distributed_table('trusted_issuer', 'tenant_id', colocate_with => 'tenant');
-- Stored files and each tenant's limits on them.
select create_distributed_table('stored_file', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('file_settings', 'tenant_id', colocate_with => 'tenant');
-- Tenant exports an administrator asked for (jobs).
select create_distributed_table('tenant_export', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('customer', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('opportunity', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('activity', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('subsidiary', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('supplier', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('ap_invoice', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('audit_log', 'tenant_id', colocate_with => 'tenant');
-- Records' history and each tenant's retention of it.
select create_distributed_table('record_history', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('history_settings', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('employee', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('contact_form_widget_config', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('lead', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('booking', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('concept', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('configurator_type', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('coverage_job', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('idempotency_key', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('hr_project', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('epic', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('feature', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('inbound_email', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('invoice', 'tenant_id', colocate_with => 'tenant');
-- The invoices whose PDF is still to be made, after the invoices they name.
select create_distributed_table('invoice_pdf_due', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('notification', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('notification_settings', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('product', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('push_token', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('sent_mail', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('stock_site', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('stock_inventory', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('stock_batch', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('stock_transfer', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('task', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('tax_percentage', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('team', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('tenant_role', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('tenant_sequence', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('type_product_coverage', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('waste_record', 'tenant_id', colocate_with => 'tenant');
-- Events: endpoints before the outbox (a test send names its endpoint), both before deliveries.
select create_distributed_table('webhook_endpoint', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('outbox_event', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('event_delivery', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('webhook_backlog', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('user_invitation', 'tenant_id', colocate_with => 'tenant');
select create_distributed_table('mailbox', 'tenant_id', colocate_with => 'tenant');

commit;
