/**
 * Where the service keeps personal data: one declaration per column, `table.column` (or
 * `*.column` for a column every tenant table that has it shares), with what the column holds.
 * Exporting and erasing one person (services/personal-data.ts, docs/security.md) read this list
 * alone, so a table added later is covered by declaring its columns here; a test fails while a
 * column named like personal data (e-mail, name, phone) in a tenant table is neither declared
 * here nor in NOT_PERSONAL.
 *
 * - `email`: an e-mail address. A row whose `email` column is the person's address is about the
 *   person: its `name` and `phone` columns are the person's too.
 * - `email-list`: e-mail addresses (a text array): the person's address among them.
 * - `name`, `phone`: the person's name or number when the row is about the person.
 * - `text`, `json`: free text or a JSON document (a message, a history entry, an event's data)
 *   that may mention the person: the person's address, full name and phone number are found and
 *   replaced wherever they occur in it.
 * Amounts, dates, statuses and ids are never declared: erasing a person leaves bookkeeping whole.
 */
export type PersonalKind = 'email' | 'email-list' | 'name' | 'phone' | 'text' | 'json';

export const PERSONAL_DATA: Readonly<Record<string, PersonalKind>> = {
  // Who wrote a record (the actor's e-mail), and the history every audited record keeps.
  '*.created_by': 'email',
  '*.updated_by': 'email',
  // Every change's entry (history/recorder.ts): who made it, and the values it changed.
  'record_history.actor_email': 'email',
  'record_history.description': 'text',
  'record_history.changes': 'json',

  'tenant.owner': 'email',
  'app_user.email': 'email',
  'app_user.first_name': 'name',
  'app_user.last_name': 'name',
  'app_user.profile': 'json',
  'employee.email': 'email',
  'employee.first_name': 'name',
  'employee.last_name': 'name',
  'employee.phone': 'phone',
  'customer.email': 'email',
  'customer.name': 'name',
  'customer.phone': 'phone',
  'supplier.email': 'email',
  'supplier.name': 'name',

  'lead.email': 'email',
  'lead.first_name': 'name',
  'lead.last_name': 'name',
  'lead.phone': 'phone',
  'lead.instagram_handle': 'name',
  'lead.address': 'json',
  'lead.message': 'text',
  'lead.note': 'text',
  'lead.qualification_notes': 'text',
  'booking.email': 'email',
  'booking.first_name': 'name',
  'booking.last_name': 'name',
  'booking.phone': 'phone',
  'booking.street': 'name',
  'booking.house_number': 'name',
  'booking.postal_code': 'name',
  'booking.city': 'name',
  'booking.message': 'text',
  'activity.contact_email': 'email',
  'activity.contact_name': 'name',
  'activity.contact_phone': 'phone',
  'activity.attendees': 'email-list',
  'activity.subject': 'text',
  'activity.description': 'text',
  'activity.outcome': 'text',

  'inbound_email.from_email': 'email',
  'inbound_email.from_name': 'name',
  'inbound_email.recipients': 'email-list',
  'inbound_email.cc': 'email-list',
  'inbound_email.subject': 'text',
  'inbound_email.body_text': 'text',
  'inbound_email.body_html': 'text',
  'sent_mail.recipient': 'email',
  'sent_mail.subject': 'text',

  'invoice.contact_email': 'email',
  'invoice.mail_body': 'text',
  'invoice.reminder_body': 'text',
  'invoice.note': 'text',
  'invoice.sent_mails': 'email-list',
  'ap_invoice.supplier_email': 'email',
  'ap_invoice.supplier_name': 'name',
  'ap_invoice.note': 'text',

  'notification.title': 'text',
  'notification.body': 'text',
  'notification.sender': 'email',
  'notification.metadata': 'json',
  'waste_record.approved_by': 'name',

  'outbox_event.actor': 'json',
  'outbox_event.data': 'json',
  'event_delivery.target': 'json',
  'event_delivery.attempt_log': 'json',
  'audit_log.data': 'json',
  'idempotency_key.body': 'text',
  'tenant_export.requested_by': 'email',
};

/**
 * Columns of tenant tables named like personal data that hold none, with the reason (the test
 * that keeps PERSONAL_DATA complete reads this list).
 */
export const NOT_PERSONAL: Readonly<Record<string, string>> = {
  'api_key.name': "the key's label, chosen by an administrator",
  'concept.name': 'a product concept',
  'configurator_type.name': 'a product type',
  'configurator_type.element_name_prefix': 'a naming rule of generated elements',
  'contact_form_widget_config.name': 'a form',
  'coverage_job.name': 'a job',
  'coverage_job.worker_name': 'a worker process',
  'epic.name': 'a piece of work',
  'feature.name': 'a piece of work',
  'hr_project.name': 'a project',
  'opportunity.name': 'a sales opportunity',
  'product.name': 'a product',
  'stock_site.name': 'a place',
  'stored_file.name': "a file's name",
  'subsidiary.name': 'a part of the organisation',
  'team.name': 'a team',
  'tenant_role.name': 'a role',
  'tenant_sequence.name': 'a numbering sequence',
  'type_product_coverage.product_name': 'a product',
  'tenant.name': 'the organisation',
  'lead.company_name': 'an organisation',
  'booking.company_name': 'an organisation',
  'mailbox.username':
    "the login of the company's mailbox on its mail server: a credential, kept as configured",
  'push_token.device_name': "a device's label",
  'configurator_type.hide_base_option_in_name': 'a flag',
  'notification.email_sent': 'a flag',
  'notification.email_sent_at': 'a time',
  'notification_settings.email_notifications_enabled': 'a flag',
};

/** Whether a column's name suggests personal data: the test of completeness looks at these. */
export const LOOKS_PERSONAL = /(e_?mail|name|phone)/;
