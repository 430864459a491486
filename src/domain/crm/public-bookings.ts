import type { EntityManager } from '@mikro-orm/core';
import { conflict, notFound, problems, type Problem } from '../../errors';
import { lockEmployee } from './booking-repository';
import { queueBookingConfirmation } from './booking-mail';
import { prepareBooking } from './booking-rules';
import { Booking, BookingStatus } from './entities/booking';
import type { ContactFormWidgetConfig } from './entities/contact-form-widget';
import { Lead, LeadStatus } from './entities/lead';
import { optionalTexts, ownerOf } from './public-forms';

/**
 * Public bookings. There is no booking widget of its own: a contact-form widget with an
 * `assignedTeamLeadId` is also its booking page (a booking's `widgetConfigId` names a
 * contact-form widget), and its slots are that employee's. Until working hours are kept per
 * employee, the slots are SLOT_MINUTES long, on weekdays between OPEN_HOUR and CLOSE_HOUR UTC.
 */
export const SLOT_MINUTES = 30;
export const OPEN_HOUR = 9;
export const CLOSE_HOUR = 17;
/** How many days ahead one request may ask for slots. */
export const MAX_DAYS = 31;

const MINUTE = 60_000;
const DAY = 86_400_000;
/** Statuses that hold their slot. */
const HOLDING = [BookingStatus.CONFIRMED, BookingStatus.PENDING];

/** The employee a widget books, or a 404 like an unknown widget's. */
export function bookablePerson(widget: ContactFormWidgetConfig): string {
  if (!widget.assignedTeamLeadId) throw notFound(`there is no booking page "${widget.slug}"`);
  return widget.assignedTeamLeadId;
}

/** Whether `start` begins a slot of the grid: a weekday, within opening hours, on the slot's minute. */
export function isSlotStart(start: Date): boolean {
  const day = start.getUTCDay();
  if (day === 0 || day === 6) return false;
  const minutes = start.getUTCHours() * 60 + start.getUTCMinutes();
  return (
    start.getUTCSeconds() === 0 &&
    start.getUTCMilliseconds() === 0 &&
    minutes % SLOT_MINUTES === 0 &&
    minutes >= OPEN_HOUR * 60 &&
    minutes + SLOT_MINUTES <= CLOSE_HOUR * 60
  );
}

/** Every slot start of the grid from `from` (a UTC midnight) over `days` days, after `now`. */
export function gridSlots(from: Date, days: number, now: Date): Date[] {
  const slots: Date[] = [];
  for (let t = from.getTime(); t < from.getTime() + days * DAY; t += SLOT_MINUTES * MINUTE) {
    const start = new Date(t);
    if (t > now.getTime() && isSlotStart(start)) slots.push(start);
  }
  return slots;
}

/** The bookings of a person that hold time overlapping [from, until). */
async function heldTimes(
  em: EntityManager,
  employeeId: string,
  from: Date,
  until: Date,
): Promise<{ start: number; end: number }[]> {
  const held = await em.find(
    Booking,
    { assignedEmployeeId: employeeId, status: { $in: HOLDING }, startTime: { $lt: until } },
    { fields: ['startTime', 'endTime', 'duration'] },
  );
  return held
    .map((b) => ({
      start: b.startTime.getTime(),
      end: (b.endTime ?? new Date(b.startTime.getTime() + (b.duration ?? SLOT_MINUTES) * MINUTE)).getTime(),
    }))
    .filter((b) => b.end > from.getTime());
}

/** The free slots of the widget's person: the grid less every booking that holds time. */
export async function freeSlots(
  em: EntityManager,
  widget: ContactFormWidgetConfig,
  from: Date,
  days: number,
  now = new Date(),
): Promise<Date[]> {
  const employeeId = bookablePerson(widget);
  const until = new Date(from.getTime() + days * DAY);
  return withoutHeld(gridSlots(from, days, now), await heldTimes(em, employeeId, from, until));
}

/** The slots no held time overlaps; one that merely touches a held time (ends as it starts) is free. */
export function withoutHeld(slots: readonly Date[], held: readonly { start: number; end: number }[]): Date[] {
  return slots.filter((s) => {
    const start = s.getTime();
    const end = start + SLOT_MINUTES * MINUTE;
    return !held.some((h) => h.start < end && h.end > start);
  });
}

/** What a visitor sends to book. */
export interface BookingRequest {
  startTime: Date;
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  companyName?: string | null;
  phone?: string | null;
  message?: string | null;
  timezone?: string | null;
}

const TEXTS = ['firstName', 'lastName', 'companyName', 'phone', 'message', 'timezone'] as const;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A booking request checked: every problem named (400 `errors`). */
export function checkBookingRequest(body: Record<string, unknown>, now = new Date()): BookingRequest {
  const found: Problem[] = [];
  const start = typeof body.startTime === 'string' ? new Date(body.startTime) : undefined;
  if (!start || Number.isNaN(start.getTime()))
    found.push({ field: 'startTime', reason: 'is required, as an ISO 8601 date-time' });
  else if (start.getTime() <= now.getTime())
    found.push({ field: 'startTime', reason: 'must be in the future' });
  else if (!isSlotStart(start)) found.push({ field: 'startTime', reason: 'is not the start of a slot' });
  if (typeof body.email !== 'string' || !EMAIL.test(body.email.trim()))
    found.push({ field: 'email', reason: 'is required, as an e-mail address' });
  const request: BookingRequest = {
    ...optionalTexts(body, TEXTS, found),
    startTime: start!,
    email: String(body.email ?? '').trim(),
  };
  if (found.length) throw problems(400, found);
  return request;
}

/**
 * Books a slot of the widget's person. The person's employee row is locked first (FOR UPDATE),
 * so two bookings of one person are decided one after the other: the second sees the first and
 * is a 409, however many arrive at once. The visitor's lead is the tenant's lead with that e-mail
 * (the latest), or a NEW one owned by the widget's team lead.
 */
export async function bookSlot(
  em: EntityManager,
  widget: ContactFormWidgetConfig,
  request: BookingRequest,
  mail?: { apiUrl: string; mailFrom: string },
): Promise<Booking> {
  const employeeId = bookablePerson(widget);
  if (!(await lockEmployee(em, widget.tenantId, employeeId)))
    throw notFound(`there is no booking page "${widget.slug}"`);
  const start = request.startTime;
  const end = new Date(start.getTime() + SLOT_MINUTES * MINUTE);
  const held = await heldTimes(em, employeeId, start, end);
  if (held.some((h) => h.start < end.getTime())) throw conflict('this slot is taken; choose another');

  const lead = await leadOf(em, widget, request);
  const booking = new Booking();
  Object.assign(booking, {
    widgetConfigId: widget.id,
    assignedEmployeeId: employeeId,
    leadId: lead.id,
    status: BookingStatus.CONFIRMED,
    startTime: start,
    duration: SLOT_MINUTES,
    ...visitor(request),
    timezone: request.timezone ?? null,
  });
  prepareBooking(booking, { startTime: start, duration: SLOT_MINUTES }, true);
  em.persist(booking);
  await em.flush();
  if (mail) await queueBookingConfirmation(em, booking, mail);
  return booking;
}

/** Who the visitor is, as both a booking and a lead keep it. */
const visitor = (request: BookingRequest) => ({
  email: request.email,
  firstName: request.firstName ?? null,
  lastName: request.lastName ?? null,
  companyName: request.companyName ?? null,
  phone: request.phone ?? null,
  message: request.message ?? null,
});

async function leadOf(
  em: EntityManager,
  widget: ContactFormWidgetConfig,
  request: BookingRequest,
): Promise<Lead> {
  const known = await em.findOne(
    Lead,
    { email: { $ilike: request.email.replace(/[\\%_]/g, (c) => `\\${c}`) } },
    { orderBy: { created: 'desc' } },
  );
  if (known) return known;
  const lead = new Lead();
  Object.assign(lead, {
    status: LeadStatus.NEW,
    ...visitor(request),
    source: 'booking',
    sourceDetail: widget.slug,
    ownerId: await ownerOf(em, widget.assignedTeamLeadId),
  });
  // Flushed first: the booking refers to it by a plain id, which orders no inserts.
  await em.persistAndFlush(lead);
  return lead;
}

/**
 * Cancels the booking of a token: one that still holds its slot. A token that is unknown (or of
 * another tenant), or whose booking is over or already cancelled, is a 404.
 */
/** The longest cancellation token a request may carry: the service's own are 32 characters. */
export const CANCEL_TOKEN_MAX = 200;

/** The token of a cancel request, or a 400 when the body carries none or one no booking could have. */
export function checkCancelToken(body: Record<string, unknown>): string {
  const token = body.token;
  if (typeof token !== 'string' || token === '')
    throw problems(400, [{ field: 'token', reason: 'is required, as the text the confirmation gave' }]);
  if (token.length > CANCEL_TOKEN_MAX)
    throw problems(400, [{ field: 'token', reason: `is longer than ${CANCEL_TOKEN_MAX} characters` }]);
  return token;
}

export async function cancelByToken(em: EntityManager, token: string): Promise<Booking> {
  const booking = token
    ? await em.findOne(Booking, { cancellationToken: token, status: { $in: HOLDING } })
    : null;
  if (!booking) throw notFound('there is no booking to cancel with this token');
  booking.status = BookingStatus.CANCELLED;
  await em.flush();
  return booking;
}
