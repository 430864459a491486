import { badRequest } from '../../errors';
import { NotificationCategory } from './entities/notification';

/** A kind of notification a user can switch off: its area, readable name and key. */
export interface ScopeEntry {
  category: NotificationCategory;
  label: string;
  scope: string;
}

const { ERP, CRM, HR, SYSTEM } = NotificationCategory;

/**
 * The scope catalog: every kind of notification the product sends, by area. Senders tag a
 * notification with one of these; users switch scopes off in their settings.
 */
export const NOTIFICATION_SCOPES: readonly ScopeEntry[] = [
  { category: ERP, scope: 'invoice.overdue', label: 'A sales invoice is overdue' },
  { category: ERP, scope: 'invoice.paid', label: 'A sales invoice has been paid' },
  { category: ERP, scope: 'ap-invoice.due', label: 'A supplier invoice is due' },
  { category: ERP, scope: 'stock.low', label: 'Stock fell below its minimum' },
  { category: ERP, scope: 'stock-transfer.status', label: 'A stock transfer changed status' },
  { category: ERP, scope: 'waste.recorded', label: 'Waste was recorded' },
  { category: CRM, scope: 'lead.assigned', label: 'A lead was assigned to you' },
  { category: CRM, scope: 'lead.status', label: 'A lead changed status' },
  { category: CRM, scope: 'activity.due', label: 'An activity is due' },
  { category: CRM, scope: 'booking.created', label: 'A booking was made' },
  { category: CRM, scope: 'inbox.received', label: 'A new e-mail arrived in the inbox' },
  { category: HR, scope: 'project.assigned', label: 'You were added to a project' },
  { category: HR, scope: 'epic.status', label: 'An epic changed status' },
  { category: HR, scope: 'feature.assigned', label: 'A feature was assigned to you' },
  { category: HR, scope: 'team.member-added', label: 'You were added to a team' },
  { category: SYSTEM, scope: 'access.changed', label: 'Your roles or access changed' },
  { category: SYSTEM, scope: 'system.announcement', label: 'Announcements about the service' },
];

const KNOWN = new Set(NOTIFICATION_SCOPES.map((s) => s.scope));

/** 400 naming the scopes that are not in the catalog. */
export function checkScopes(field: string, scopes: readonly string[]): void {
  const unknown = scopes.filter((s) => !KNOWN.has(s));
  if (unknown.length > 0) {
    throw badRequest(
      `${field}: unknown scope(s) ${unknown.join(', ')}; see GET /notifications/settings/scopes`,
    );
  }
}
