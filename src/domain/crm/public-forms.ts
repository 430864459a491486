import type { EntityManager } from '@mikro-orm/core';
import { notFound, problems, type Problem } from '../../errors';
import { isUuid } from '../../limits';
import { Tenant } from '../../entities/tenant';
import { Employee } from '../reference/entities/employee';
import { ContactFormFieldType, ContactFormWidgetConfig } from './entities/contact-form-widget';
import { Lead, LeadStatus } from './entities/lead';

/**
 * What a visitor sends through a public contact form, and the lead it becomes. Runs in a
 * transaction of the widget's tenant as the application role (row-level security holds), with
 * no user: the public route found the tenant from its key, never from the slug alone.
 */

/** The visit's context a widget sends along with the form's own fields. */
export interface VisitContext {
  pageUrl?: string | null;
  referrerUrl?: string | null;
  utmSource?: string | null;
  utmMedium?: string | null;
  utmCampaign?: string | null;
  utmTerm?: string | null;
  utmContent?: string | null;
  preferredLanguage?: string | null;
}

export const VISIT_KEYS = [
  'pageUrl',
  'referrerUrl',
  'utmSource',
  'utmMedium',
  'utmCampaign',
  'utmTerm',
  'utmContent',
  'preferredLanguage',
] as const satisfies readonly (keyof VisitContext)[];

/** A field of a widget whose name is a lead's own column fills that column; the others go in the note. */
const LEAD_COLUMNS = [
  'firstName',
  'lastName',
  'companyName',
  'companyWebsite',
  'email',
  'phone',
  'industry',
  'interest',
  'message',
] as const;

/** What `source` a lead from a contact form carries; `sourceDetail` is the widget's slug. */
export const CONTACT_FORM_SOURCE = 'contact-form';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ()./-]{3,40}$/;
const DATE = /^\d{4}-\d\d-\d\d$/;
const MAX_TEXT = 5000;

/**
 * The active widget of the transaction's tenant with this slug, or a 404 that says no more than
 * that: an inactive widget, an unknown slug and a slug of another tenant read alike.
 */
export async function activeWidget(em: EntityManager, slug: string): Promise<ContactFormWidgetConfig> {
  const widget = await em.findOne(ContactFormWidgetConfig, { slug: slug.toLowerCase(), active: true });
  if (!widget) throw notFound(`there is no active contact form "${slug}"`);
  return widget;
}

/** Whether the tenant of the transaction exists and takes requests (not deactivated, not deleted). */
export async function tenantOpen(em: EntityManager, tenantId: string): Promise<boolean> {
  if (!isUuid(tenantId)) return false;
  return (await em.count(Tenant, { id: tenantId, active: true, deleteAfter: null })) > 0;
}

/** Whether a browser page of `origin` may send this widget's form. */
export function originAllowed(widget: ContactFormWidgetConfig, origin: string | undefined): boolean {
  if (!origin) return false;
  const allowed = widget.allowedOrigins ?? [];
  return allowed.includes('*') || allowed.includes(origin.toLowerCase().replace(/\/$/, ''));
}

type Values = Record<string, string | number | boolean>;

/**
 * The submitted values checked against the widget's own field definitions: every problem named
 * at once (400 `errors`, one per field), and fields the form does not have refused too, so a
 * misconfigured page is noticed rather than its input lost.
 */
export function checkSubmission(widget: ContactFormWidgetConfig, sent: unknown): Values {
  const found: Problem[] = [];
  if (sent == null || typeof sent !== 'object' || Array.isArray(sent))
    throw problems(400, [
      { field: 'fields', reason: "must be an object of the form's values by field name" },
    ]);
  const input = sent as Record<string, unknown>;
  const values: Values = {};
  const known = new Set(widget.fields.map((f) => f.name));
  for (const name of Object.keys(input))
    if (!known.has(name)) found.push({ field: `fields.${name}`, reason: 'the form has no such field' });
  for (const field of widget.fields) {
    const key = `fields.${field.name}`;
    const value = input[field.name];
    const empty = value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
    if (empty) {
      if (field.required) found.push({ field: key, reason: 'is required' });
      continue;
    }
    const reason = problemOf(field.type, value);
    if (reason) found.push({ field: key, reason });
    else values[field.name] = typeof value === 'string' ? value.trim() : (value as number | boolean);
  }
  if (found.length) throw problems(400, found);
  return values;
}

function problemOf(type: ContactFormFieldType, value: unknown): string | undefined {
  switch (type) {
    case ContactFormFieldType.CHECKBOX:
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case ContactFormFieldType.NUMBER:
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a number';
    default:
      break;
  }
  if (typeof value !== 'string') return 'must be a text';
  if (value.length > MAX_TEXT) return `must be at most ${MAX_TEXT} characters`;
  const text = value.trim();
  if (type === ContactFormFieldType.EMAIL && !EMAIL.test(text)) return 'must be an e-mail address';
  if (type === ContactFormFieldType.PHONE && !PHONE.test(text)) return 'must be a phone number';
  if (type === ContactFormFieldType.DATE && (!DATE.test(text) || Number.isNaN(Date.parse(text))))
    return 'must be a date (YYYY-MM-DD)';
  return undefined;
}

/** The visit's context, each a text of at most 2000 characters (400 naming the one that is not). */
export function checkVisit(body: Record<string, unknown>): VisitContext {
  const found: Problem[] = [];
  const visit = optionalTexts(body, VISIT_KEYS, found) as VisitContext;
  if (found.length) throw problems(400, found);
  return visit;
}

/** The optional texts of a public body by `keys`, trimmed; each one too long or no text named in `found`. */
export function optionalTexts(
  body: Record<string, unknown>,
  keys: readonly string[],
  found: Problem[],
): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const key of keys) {
    const value = body[key];
    if (value === undefined || value === null || value === '') continue;
    if (typeof value !== 'string' || value.length > 2000)
      found.push({ field: key, reason: 'must be a text of at most 2000 characters' });
    else texts[key] = value.trim();
  }
  return texts;
}

/** The user who owns what a widget brings in: the user of its assigned employee, if they have one. */
export async function ownerOf(
  em: EntityManager,
  employeeId: string | null | undefined,
): Promise<string | null> {
  if (!employeeId) return null;
  const employee = await em.findOne(Employee, { id: employeeId }, { fields: ['userId'] });
  return employee?.userId ?? null;
}

/**
 * A NEW lead from a submission: the form's values, the visit's context, the widget as source and
 * its team lead's user as owner (the notification of the owner follows from the lead's owner).
 */
export async function leadFromSubmission(
  em: EntityManager,
  widget: ContactFormWidgetConfig,
  values: Values,
  visit: VisitContext,
): Promise<Lead> {
  const lead = new Lead();
  lead.status = LeadStatus.NEW;
  const rest: string[] = [];
  for (const field of [...widget.fields].sort((a, b) => a.sortOrder - b.sortOrder)) {
    const value = values[field.name];
    if (value === undefined) continue;
    if ((LEAD_COLUMNS as readonly string[]).includes(field.name))
      (lead as unknown as Record<string, unknown>)[field.name] = String(value);
    else rest.push(`${field.label ?? field.name}: ${String(value)}`);
  }
  if (rest.length) lead.note = rest.join('\n');
  Object.assign(lead, visit);
  lead.source = CONTACT_FORM_SOURCE;
  lead.sourceDetail = widget.slug;
  lead.ownerId = await ownerOf(em, widget.assignedTeamLeadId);
  em.persist(lead);
  await em.flush();
  return lead;
}
