import type { Request } from 'express';
import { body, fromRequest, type RestRoute } from '../../../rest/route';

const FILTER = ['recordType', 'recordId', 'actorId', 'from', 'to'] as const;

/** The audit log's filter from the query string: each parameter as given, absent ones left out. */
function filterOf(req: Request): Record<string, string> {
  const filter: Record<string, string> = {};
  for (const name of FILTER) {
    const value = req.query[name];
    if (typeof value === 'string' && value !== '') filter[name] = value;
  }
  return filter;
}

/** The tenant-wide audit log and its settings (docs/history.md); not in the specification. */
export const historyRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/audit-log',
    field: 'auditLog',
    args: { filter: fromRequest(filterOf, 'query', FILTER) },
    code: 'custom',
    extension: true,
    summary: 'The audit log: every change of every record, newest first, filtered and paged',
  },
  {
    method: 'GET',
    path: '/audit-log/csv-export',
    field: 'exportAuditLogCsv',
    args: { filter: fromRequest(filterOf, 'query', FILTER) },
    code: 'custom',
    extension: true,
    summary: 'The audit log as CSV',
    csv: { filename: 'audit-log.csv' },
  },
  {
    method: 'GET',
    path: '/audit-log/settings',
    field: 'historySettings',
    code: 'custom',
    extension: true,
    summary: "The tenant's history retention",
  },
  {
    method: 'PUT',
    path: '/audit-log/settings',
    field: 'updateHistorySettings',
    args: { input: body() },
    code: 'custom',
    extension: true,
    summary: "Change the tenant's history retention (days)",
  },
];
