/**
 * Every migration's name, in order, written with index.ts by `npm run migration:create`: what a
 * process reads to see whether its database is up to date without loading the migrations, whose
 * base class brings the whole migrator in (src/db/orm.ts `migrate`).
 */
export const migrationNames: readonly string[] = [
  'Migration20261122000000_initial',
  'Migration20261122000001_rls',
  'Migration20261123095959_integrity',
  'Migration20261123100000_events',
  'Migration20261123100001_notification_email',
  'Migration20261123110000_event_keys',
  'Migration20261123120000_live_notify',
  'Migration20261123130000_idempotency',
  'Migration20261123130100_search',
  'Migration20261123140000_caller_cache',
  'Migration20261123140100_outbox_notify',
  'Migration20261123150000_live_tenants',
  'Migration20261126110000_delivery_window',
  'Migration20261126120000_trusted_issuers',
  'Migration20261126120100_api_keys',
  'Migration20261126130000_stored_files',
  'Migration20261126140000_record_history',
  'Migration20261126150000_push_and_digests',
  'Migration20261126160000_tenant_lifecycle',
  'Migration20261126160100_tenant_exports',
  'Migration20261126170000_tenant_export_leases',
  'Migration20261127000000_quiet_rls',
  'Migration20261127100000_delivery_room',
  'Migration20261127110000_webhook_backlog',
  'Migration20261128100000_webhook_slow',
  'Migration20261129100000_signed_out_token',
  'Migration20261129200000_jobs',
  'Migration20261129230000_customer_address',
  'Migration20261130010000_notify',
  'Migration20261130020000_front_office',
  'Migration20261130030000_invitations',
  'Migration20261130040000_invoice_pdf_queue',
];
