/** Every migration, in order: listed here so the same list runs from sources, builds and tests. */
import { Migration20261122000000_initial } from './Migration20261122000000_initial';
import { Migration20261122000001_rls } from './Migration20261122000001_rls';
import { Migration20261123095959_integrity } from './Migration20261123095959_integrity';
import { Migration20261123100000_events } from './Migration20261123100000_events';
import { Migration20261123100001_notification_email } from './Migration20261123100001_notification_email';
import { Migration20261123110000_event_keys } from './Migration20261123110000_event_keys';
import { Migration20261123120000_live_notify } from './Migration20261123120000_live_notify';
import { Migration20261123130000_idempotency } from './Migration20261123130000_idempotency';
import { Migration20261123130100_search } from './Migration20261123130100_search';
import { Migration20261123140000_caller_cache } from './Migration20261123140000_caller_cache';
import { Migration20261123140100_outbox_notify } from './Migration20261123140100_outbox_notify';
import { Migration20261123150000_live_tenants } from './Migration20261123150000_live_tenants';
import { Migration20261126110000_delivery_window } from './Migration20261126110000_delivery_window';
import { Migration20261126120000_trusted_issuers } from './Migration20261126120000_trusted_issuers';
import { Migration20261126120100_api_keys } from './Migration20261126120100_api_keys';
import { Migration20261126130000_stored_files } from './Migration20261126130000_stored_files';
import { Migration20261126140000_record_history } from './Migration20261126140000_record_history';
import { Migration20261126150000_push_and_digests } from './Migration20261126150000_push_and_digests';
import { Migration20261126160000_tenant_lifecycle } from './Migration20261126160000_tenant_lifecycle';
import { Migration20261126160100_tenant_exports } from './Migration20261126160100_tenant_exports';
import { Migration20261126170000_tenant_export_leases } from './Migration20261126170000_tenant_export_leases';
import { Migration20261127000000_quiet_rls } from './Migration20261127000000_quiet_rls';
import { Migration20261127100000_delivery_room } from './Migration20261127100000_delivery_room';
import { Migration20261127110000_webhook_backlog } from './Migration20261127110000_webhook_backlog';
import { Migration20261128100000_webhook_slow } from './Migration20261128100000_webhook_slow';
import { Migration20261129100000_signed_out_token } from './Migration20261129100000_signed_out_token';
import { Migration20261129200000_jobs } from './Migration20261129200000_jobs';
import { Migration20261129230000_customer_address } from './Migration20261129230000_customer_address';
import { Migration20261130010000_notify } from './Migration20261130010000_notify';
import { Migration20261130020000_front_office } from './Migration20261130020000_front_office';
import { Migration20261130030000_invitations } from './Migration20261130030000_invitations';
import { Migration20261130040000_invoice_pdf_queue } from './Migration20261130040000_invoice_pdf_queue';
import { Migration20261130050000_mailboxes } from './Migration20261130050000_mailboxes';
import { Migration20261130060000_booking_reminders } from './Migration20261130060000_booking_reminders';
import { Migration20261130070000_transfer_write_off } from './Migration20261130070000_transfer_write_off';

export const migrationsList: { name: string; class: any }[] = [
  { name: 'Migration20261122000000_initial', class: Migration20261122000000_initial },
  { name: 'Migration20261122000001_rls', class: Migration20261122000001_rls },
  { name: 'Migration20261123095959_integrity', class: Migration20261123095959_integrity },
  { name: 'Migration20261123100000_events', class: Migration20261123100000_events },
  { name: 'Migration20261123100001_notification_email', class: Migration20261123100001_notification_email },
  { name: 'Migration20261123110000_event_keys', class: Migration20261123110000_event_keys },
  { name: 'Migration20261123120000_live_notify', class: Migration20261123120000_live_notify },
  { name: 'Migration20261123130000_idempotency', class: Migration20261123130000_idempotency },
  { name: 'Migration20261123130100_search', class: Migration20261123130100_search },
  { name: 'Migration20261123140000_caller_cache', class: Migration20261123140000_caller_cache },
  { name: 'Migration20261123140100_outbox_notify', class: Migration20261123140100_outbox_notify },
  { name: 'Migration20261123150000_live_tenants', class: Migration20261123150000_live_tenants },
  { name: 'Migration20261126110000_delivery_window', class: Migration20261126110000_delivery_window },
  { name: 'Migration20261126120000_trusted_issuers', class: Migration20261126120000_trusted_issuers },
  { name: 'Migration20261126120100_api_keys', class: Migration20261126120100_api_keys },
  { name: 'Migration20261126130000_stored_files', class: Migration20261126130000_stored_files },
  { name: 'Migration20261126140000_record_history', class: Migration20261126140000_record_history },
  { name: 'Migration20261126150000_push_and_digests', class: Migration20261126150000_push_and_digests },
  { name: 'Migration20261126160000_tenant_lifecycle', class: Migration20261126160000_tenant_lifecycle },
  { name: 'Migration20261126160100_tenant_exports', class: Migration20261126160100_tenant_exports },
  { name: 'Migration20261126170000_tenant_export_leases', class: Migration20261126170000_tenant_export_leases },
  { name: 'Migration20261127000000_quiet_rls', class: Migration20261127000000_quiet_rls },
  { name: 'Migration20261127100000_delivery_room', class: Migration20261127100000_delivery_room },
  { name: 'Migration20261127110000_webhook_backlog', class: Migration20261127110000_webhook_backlog },
  { name: 'Migration20261128100000_webhook_slow', class: Migration20261128100000_webhook_slow },
  { name: 'Migration20261129100000_signed_out_token', class: Migration20261129100000_signed_out_token },
  { name: 'Migration20261129200000_jobs', class: Migration20261129200000_jobs },
  { name: 'Migration20261129230000_customer_address', class: Migration20261129230000_customer_address },
  { name: 'Migration20261130010000_notify', class: Migration20261130010000_notify },
  { name: 'Migration20261130020000_front_office', class: Migration20261130020000_front_office },
  { name: 'Migration20261130030000_invitations', class: Migration20261130030000_invitations },
  { name: 'Migration20261130040000_invoice_pdf_queue', class: Migration20261130040000_invoice_pdf_queue },
  { name: 'Migration20261130050000_mailboxes', class: Migration20261130050000_mailboxes },
  { name: 'Migration20261130060000_booking_reminders', class: Migration20261130060000_booking_reminders },
  {
    name: 'Migration20261130070000_transfer_write_off',
    class: Migration20261130070000_transfer_write_off,
  },
];
