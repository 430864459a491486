/**
 * Columns named like references (`*_id`) that deliberately have no foreign key, with the reason.
 * Every other `*_id` column of a tenant table has a key `(tenant_id, x_id) -> x (tenant_id, id)`
 * (test/security/integrity.test.ts checks both the keys and this list).
 */
export const UNKEYED_REFERENCES: Readonly<Record<string, string>> = {
  'audit_log.entity_id': 'names a record of any table, and must outlive it: the log keeps deleted records',
  'record_history.record_id':
    'names a record of any table, and must outlive it: the history keeps deleted records',
  'record_history.actor_user_id': 'who made a change; the history outlives a user who is gone',
  'record_history.actor_api_key_id': 'the key that made a change; the history outlives the key',
  'record_history.request_id': 'the X-Request-Id of the request that made a change (text), not a record',
  'outbox_event.resource_id':
    'the record an event is about, in any table, and it must outlive a deleted record',
  'app_user.signed_out_token_id':
    'the identifier (jti) of the provider token that asked for a sign-out everywhere, not a record',
  'booking.calendar_event_id': 'an id in an external calendar (text)',
  'coverage_job.current_agent_id': 'the name of the worker process holding the job, not a record',
  'coverage_job.type_id':
    'a job outlives a deleted type: the worker then ends it FAILED ("no longer exists"), which the job records',
  'coverage_job.static_model_id': "an entry of the type's static models (JSON inside configurator_type)",
  'epic.owner_id':
    'HR accepts the id of an employee that does not exist (yet): the record shows the person as null until it does (test/hr)',
  'hr_project.lead_id':
    'HR accepts the id of an employee that does not exist (yet): the record shows the person as null until it does (test/hr)',
  'hr_project.client_id':
    'HR accepts the id of a customer that does not exist (yet), as it does for its people (test/hr/projects.test.ts)',
  'task.assignee_id':
    'HR accepts the id of an employee that does not exist (yet): the record shows the person as null until it does (test/hr)',
  'inbound_email.conversation_id': 'an id of the mail system (text)',
  'inbound_email.graph_message_id': 'an id of Microsoft Graph (text)',
  'inbound_email.internet_message_id': 'the RFC 5322 Message-ID (text)',
  'sent_mail.message_id': 'the RFC 5322 Message-ID the service gave the mail (text), which replies name',
  'inbound_email.parent_communication_id':
    'the e-mail this one answers: an inbound e-mail or a sent mail (two tables), as the mail gateway reports it',
  'inbound_email.related_entity_id': 'a record of the kind relatedEntityType names (any of several tables)',
  'invoice.milestone_id': 'a milestone of another domain, not stored by this service',
  'invoice.sales_order_id': 'a sales order of another domain, not stored by this service',
  'product.image_blob_id': 'an id in the blob store (text)',
  'stock_batch.location_id': 'a storage location inside a site, a free label (text)',
  'stock_batch.original_purchase_order_id': 'a purchase order of another domain (text)',
  'type_product_coverage.static_model_tree_id':
    "an entry of the type's static models (JSON), not a table row",
  'type_product_coverage.variant_id': "a variant computed from the type's decision tree, not a table row",
  'waste_record.shift_id': 'a shift of another domain (scheduling), not stored by this service',
  'api_key.creator_id':
    'a key acts within its creator’s rights, read at each use: a creator who is gone leaves a key that is refused',
  'api_key.subsidiary_id':
    'a key’s reach, as a user’s subsidiary access (a list, unkeyed) is: one removed leaves the key reaching none of it',
  'api_key.project_id':
    'a key’s reach, as a user’s project access (a list, unkeyed) is: one removed leaves the key reaching none of it',
  'stored_file.thumbnail_id':
    'the thumbnail a job makes after the upload, under the id the upload answered: it is stored later, and cleaned up with its file',
};

/**
 * Unique keys of tenant tables without `tenant_id`, with the reason; every other unique key of a
 * tenant table leads with it (test/security/integrity.test.ts checks both). The Citus script drops
 * them (scripts/citus/distribute.sql says what holds instead).
 */
export const UNIQUE_ACROSS_TENANTS: Readonly<Record<string, string>> = {
  job_run_pkey: "a job run's id names one run of the deployment's schedulers, whatever its tenant",
  job_run_claim_uq:
    'one claim per job, tenant and period across the deployment: deployment-wide jobs have no tenant, and the claim is what every process competes for',
  trusted_issuer_issuer_uq:
    "an issuer URL names one tenant of the deployment: a token's `iss` leads to one tenant",
};
