import { AppError } from '../../src/errors';
import { bookingEnd, reminderDue, REMINDER_LEAD_MS } from '../../src/domain/crm/booking-jobs';
import { prepareBooking } from '../../src/domain/crm/booking-rules';
import { BookingStatus, type Booking } from '../../src/domain/crm/entities/booking';
import {
  ContactFormFieldType,
  type ContactFormWidgetConfig,
} from '../../src/domain/crm/entities/contact-form-widget';
import type { SentMail } from '../../src/domain/crm/entities/sent-mail';
import {
  checkBookingRequest,
  checkCancelToken,
  CANCEL_TOKEN_MAX,
  gridSlots,
  isSlotStart,
  withoutHeld,
} from '../../src/domain/crm/public-bookings';
import { checkSubmission, checkVisit, originAllowed } from '../../src/domain/crm/public-forms';
import { stampActivity, stampOpening, stampQualification } from '../../src/domain/crm/stamps';
import type { Context } from '../../src/context';
import type { Activity } from '../../src/domain/crm/entities/activity';
import { LeadStatus, type Lead } from '../../src/domain/crm/entities/lead';

/**
 * The CRM's rules on their own (booking slots and times, reminders, public form checks), with no
 * server and no database. The grid is 30-minute slots, 09:00 to 17:00 UTC on weekdays.
 */

const at = (iso: string) => new Date(`${iso}Z`);
/** Monday 4 January 2027. */
const MONDAY = '2027-01-04';

/** The 400 problems a rule throws, as `field: reason` lines. */
function problemsOf(work: () => unknown): string[] {
  try {
    work();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    const ext = (err as AppError).extensions as { errors?: { field: string; reason: string }[] };
    return (ext.errors ?? []).map((p) => `${p.field}: ${p.reason}`);
  }
  throw new Error('expected the rule to refuse');
}

describe('booking slots', () => {
  it('a slot starts on a weekday, on the half hour, within opening hours, to the millisecond', () => {
    expect(isSlotStart(at(`${MONDAY}T09:00:00`))).toBe(true);
    expect(isSlotStart(at(`${MONDAY}T16:30:00`))).toBe(true);
    // The last slot must end by 17:00; 08:30 is before opening.
    expect(isSlotStart(at(`${MONDAY}T17:00:00`))).toBe(false);
    expect(isSlotStart(at(`${MONDAY}T08:30:00`))).toBe(false);
    expect(isSlotStart(at(`${MONDAY}T09:15:00`))).toBe(false);
    expect(isSlotStart(at(`${MONDAY}T09:00:01`))).toBe(false);
    expect(isSlotStart(at(`${MONDAY}T09:00:00.001`))).toBe(false);
    // Saturday and Sunday.
    expect(isSlotStart(at('2027-01-02T10:00:00'))).toBe(false);
    expect(isSlotStart(at('2027-01-03T10:00:00'))).toBe(false);
    // The grid is UTC: 10:00 in Amsterdam (09:00 UTC in winter) is a slot, 09:00 there is not.
    expect(isSlotStart(new Date(`${MONDAY}T10:00:00+01:00`))).toBe(true);
    expect(isSlotStart(new Date(`${MONDAY}T09:00:00+01:00`))).toBe(false);
  });

  it('the grid of a week: 16 slots a weekday, none at the weekend, none before now', () => {
    const friday = at('2027-01-01T00:00:00');
    const slots = gridSlots(friday, 7, at('2026-12-01T00:00:00'));
    // Friday and Monday to Thursday: five weekdays.
    expect(slots).toHaveLength(5 * 16);
    expect(slots[0].toISOString()).toBe('2027-01-01T09:00:00.000Z');
    expect(slots[16].toISOString()).toBe(`${MONDAY}T09:00:00.000Z`);
    // Now in the middle of Monday: only the slots after it.
    const monday = gridSlots(at(`${MONDAY}T00:00:00`), 1, at(`${MONDAY}T12:00:00`));
    expect(monday[0].toISOString()).toBe(`${MONDAY}T12:30:00.000Z`);
    expect(monday).toHaveLength(9);
  });

  it('free slots: a held time takes every slot it overlaps, not the ones it only touches', () => {
    const grid = gridSlots(at(`${MONDAY}T00:00:00`), 1, at('2026-12-01T00:00:00'));
    const held = (from: string, until: string) => ({
      start: at(`${MONDAY}T${from}:00`).getTime(),
      end: at(`${MONDAY}T${until}:00`).getTime(),
    });
    const free = (times: { start: number; end: number }[]) =>
      withoutHeld(grid, times).map((d) => d.toISOString().slice(11, 16));
    expect(free([])).toHaveLength(16);
    // 10:00-10:30 exactly: that slot only.
    expect(free([held('10:00', '10:30')])).not.toContain('10:00');
    expect(free([held('10:00', '10:30')])).toHaveLength(15);
    // 10:15-11:05 (an appointment off the grid) takes 10:00, 10:30 and 11:00.
    const around = free([held('10:15', '11:05')]);
    expect(around).toHaveLength(13);
    expect(around).toEqual(expect.arrayContaining(['09:30', '11:30']));
    // Ending at 09:00 or starting at 17:00 takes nothing.
    expect(free([held('08:00', '09:00'), held('17:00', '18:00')])).toHaveLength(16);
  });

  it('a booking request names every problem at once; a past or off-grid start is refused', () => {
    const now = at(`${MONDAY}T08:00:00`);
    expect(problemsOf(() => checkBookingRequest({ email: 'x' }, now)).sort()).toEqual([
      'email: is required, as an e-mail address',
      'startTime: is required, as an ISO 8601 date-time',
    ]);
    expect(
      problemsOf(() => checkBookingRequest({ startTime: '2027-01-01T09:00:00Z', email: 'a@b.test' }, now)),
    ).toEqual(['startTime: must be in the future']);
    expect(
      problemsOf(() =>
        checkBookingRequest({ startTime: `${MONDAY}T09:10:00Z`, email: 'a@b.test', phone: 7 }, now),
      ),
    ).toEqual(['startTime: is not the start of a slot', 'phone: must be a text of at most 2000 characters']);
    const ok = checkBookingRequest(
      { startTime: `${MONDAY}T09:30:00Z`, email: ' a@b.test ', firstName: ' Ada ' },
      now,
    );
    expect(ok).toEqual({ startTime: at(`${MONDAY}T09:30:00`), email: 'a@b.test', firstName: 'Ada' });
  });

  it('a cancel token must be a text of at most the longest a token can be', () => {
    expect(checkCancelToken({ token: 'abc' })).toBe('abc');
    expect(problemsOf(() => checkCancelToken({}))).toHaveLength(1);
    expect(problemsOf(() => checkCancelToken({ token: 5 }))).toHaveLength(1);
    expect(checkCancelToken({ token: 'x'.repeat(CANCEL_TOKEN_MAX) })).toHaveLength(CANCEL_TOKEN_MAX);
    expect(problemsOf(() => checkCancelToken({ token: 'x'.repeat(CANCEL_TOKEN_MAX + 1) }))).toEqual([
      `token: is longer than ${CANCEL_TOKEN_MAX} characters`,
    ]);
  });
});

describe('booking times', () => {
  const booking = (fields: Partial<Booking>) =>
    ({ startTime: at(`${MONDAY}T10:00:00`), ...fields }) as Booking;

  it('end time and duration: whichever is given decides the other; a move keeps the length', () => {
    const b = booking({ duration: 45 });
    prepareBooking(b, { startTime: b.startTime, duration: 45 }, true);
    expect(b.endTime!.toISOString()).toBe(`${MONDAY}T10:45:00.000Z`);
    expect(b.cancellationToken).toMatch(/^[A-Za-z0-9_-]{32}$/);

    const byEnd = booking({ endTime: at(`${MONDAY}T11:30:00`) });
    prepareBooking(byEnd, { endTime: byEnd.endTime! }, false);
    expect(byEnd.duration).toBe(90);

    b.startTime = at(`${MONDAY}T14:00:00`);
    prepareBooking(b, { startTime: b.startTime }, false);
    expect(b.endTime!.toISOString()).toBe(`${MONDAY}T14:45:00.000Z`);
  });

  it('refuses an end before the start, a disagreeing duration and an unknown time zone', () => {
    expect(() =>
      prepareBooking(
        booking({ endTime: at(`${MONDAY}T09:00:00`) }),
        { endTime: at(`${MONDAY}T09:00:00`) },
        true,
      ),
    ).toThrow(/endTime must not be before startTime/);
    expect(() =>
      prepareBooking(
        booking({ endTime: at(`${MONDAY}T11:00:00`), duration: 30 }),
        { endTime: at(`${MONDAY}T11:00:00`), duration: 30 },
        true,
      ),
    ).toThrow(/duration: 30 minutes does not match endTime \(60 minutes\)/);
    expect(() => prepareBooking(booking({ timezone: 'Mars/Olympus' }), {}, true)).toThrow(
      /not an IANA time zone/,
    );
    expect(() => prepareBooking(booking({ timezone: 'Europe/Amsterdam' }), {}, true)).not.toThrow();
  });

  it('a booking ends at its end time, else after its duration, else after one slot', () => {
    const start = at(`${MONDAY}T10:00:00`);
    expect(
      bookingEnd({ startTime: start, endTime: at(`${MONDAY}T12:00:00`), duration: 5 }).toISOString(),
    ).toBe(`${MONDAY}T12:00:00.000Z`);
    expect(bookingEnd({ startTime: start, duration: 90 }).toISOString()).toBe(`${MONDAY}T11:30:00.000Z`);
    expect(bookingEnd({ startTime: start, duration: 0 }).toISOString()).toBe(`${MONDAY}T10:00:00.000Z`);
    expect(bookingEnd({ startTime: start }).toISOString()).toBe(`${MONDAY}T10:30:00.000Z`);
  });

  it('the reminder is due within a day of the start, once, only for CONFIRMED, not for late bookings', () => {
    const start = at(`${MONDAY}T10:00:00`);
    const due = (fields: Partial<Booking>, now: Date) =>
      reminderDue(
        { status: BookingStatus.CONFIRMED, startTime: start, created: at('2026-12-01T00:00:00'), ...fields },
        now,
      );
    const dayBefore = new Date(start.getTime() - REMINDER_LEAD_MS);
    expect(due({}, new Date(dayBefore.getTime() - 1))).toBe(false);
    expect(due({}, dayBefore)).toBe(true);
    expect(due({}, new Date(start.getTime() - 1))).toBe(true);
    expect(due({}, start)).toBe(false);
    expect(due({ remindedAt: dayBefore }, dayBefore)).toBe(false);
    for (const status of [
      BookingStatus.PENDING,
      BookingStatus.CANCELLED,
      BookingStatus.NO_SHOW,
      BookingStatus.COMPLETED,
    ])
      expect(due({ status }, dayBefore)).toBe(false);
    // Booked three hours ahead: the confirmation is the reminder.
    expect(
      due({ created: new Date(start.getTime() - 3 * 3_600_000) }, new Date(start.getTime() - 3_600_000)),
    ).toBe(false);
    expect(due({ created: null }, dayBefore)).toBe(true);
  });
});

describe('public contact forms', () => {
  const widget = {
    allowedOrigins: ['https://shop.example.test'],
    fields: [
      { name: 'email', type: ContactFormFieldType.EMAIL, required: true },
      { name: 'phone', type: ContactFormFieldType.PHONE },
      { name: 'date', type: ContactFormFieldType.DATE },
      { name: 'count', type: ContactFormFieldType.NUMBER },
      { name: 'agree', type: ContactFormFieldType.CHECKBOX, required: true },
      { name: 'note', type: ContactFormFieldType.TEXTAREA },
    ],
  } as unknown as ContactFormWidgetConfig;

  it('names every bad field at once, unknown fields included; trims what it keeps', () => {
    expect(
      problemsOf(() =>
        checkSubmission(widget, {
          email: 'not-an-address',
          phone: 'call me',
          date: '2027-02-30x',
          count: '3',
          note: 'x'.repeat(5001),
          extra: 1,
        }),
      ).sort(),
    ).toEqual([
      'fields.agree: is required',
      'fields.count: must be a number',
      'fields.date: must be a date (YYYY-MM-DD)',
      'fields.email: must be an e-mail address',
      'fields.extra: the form has no such field',
      'fields.note: must be at most 5000 characters',
      'fields.phone: must be a phone number',
    ]);
    expect(
      checkSubmission(widget, { email: ' a@b.test ', agree: false, count: 0, phone: '+31 (20) 123-4567' }),
    ).toEqual({
      email: 'a@b.test',
      agree: false,
      count: 0,
      phone: '+31 (20) 123-4567',
    });
    expect(problemsOf(() => checkSubmission(widget, [1]))).toEqual([
      "fields: must be an object of the form's values by field name",
    ]);
    expect(problemsOf(() => checkSubmission(widget, { email: '  ', agree: true }))).toEqual([
      'fields.email: is required',
    ]);
  });

  it('origins: exactly the listed ones (case and a trailing slash aside), or any with *', () => {
    expect(originAllowed(widget, 'https://shop.example.test')).toBe(true);
    expect(originAllowed(widget, 'HTTPS://SHOP.EXAMPLE.TEST/')).toBe(true);
    expect(originAllowed(widget, 'https://shop.example.test.evil.test')).toBe(false);
    expect(originAllowed(widget, undefined)).toBe(false);
    expect(
      originAllowed({ ...widget, allowedOrigins: ['*'] } as ContactFormWidgetConfig, 'https://any.test'),
    ).toBe(true);
    expect(
      originAllowed(
        { ...widget, allowedOrigins: [] } as unknown as ContactFormWidgetConfig,
        'https://shop.example.test',
      ),
    ).toBe(false);
  });

  it("the visit's context: texts of at most 2000 characters", () => {
    expect(problemsOf(() => checkVisit({ referrerUrl: 'x'.repeat(2001) }))).toEqual([
      'referrerUrl: must be a text of at most 2000 characters',
    ]);
  });
});

describe('leads and activities', () => {
  /** The rules read only the caller of a context. */
  const as = (userId: string) => ({ caller: { userId } }) as unknown as Context;

  it('a lead is qualified once: the first qualification and who made it are kept', () => {
    const lead = { status: LeadStatus.QUALIFIED } as Lead;
    stampQualification(as('u1'), lead, { status: LeadStatus.CONTACTED });
    expect(lead.qualifiedBy).toBeUndefined();
    stampQualification(as('u1'), lead, { status: LeadStatus.QUALIFIED });
    const first = lead.qualifiedDate;
    expect(lead.qualifiedBy).toBe('u1');
    stampQualification(as('u2'), lead, { status: LeadStatus.QUALIFIED });
    expect(lead.qualifiedBy).toBe('u1');
    expect(lead.qualifiedDate).toBe(first);
  });

  it("a new activity is its creator's unless it names an owner; reopening clears completedAt", () => {
    const mine = {} as Activity;
    stampActivity(as('u1'), mine, {}, true);
    expect(mine.ownerId).toBe('u1');
    const theirs = { ownerId: null } as Activity;
    stampActivity(as('u1'), theirs, { ownerId: null }, true);
    expect(theirs.ownerId).toBeNull();
    const done = { completed: true } as Activity;
    stampActivity(as('u1'), done, { completed: true }, false);
    expect(done.completedAt).toBeInstanceOf(Date);
    done.completed = false;
    stampActivity(as('u1'), done, { completed: false }, false);
    expect(done.completedAt).toBeNull();
    const when = new Date('2027-01-04T10:00:00Z');
    const told = { completed: true, completedAt: when } as Activity;
    stampActivity(as('u1'), told, { completed: true, completedAt: when }, false);
    expect(told.completedAt).toBe(when);
  });
});

describe('sent mails', () => {
  it('the first opening is stamped and kept; unmarking clears it unless the client says when', () => {
    const mail = { opened: true } as SentMail;
    stampOpening(mail, { opened: true });
    const first = mail.openedAt!;
    expect(first).toBeInstanceOf(Date);
    stampOpening(mail, { opened: true });
    expect(mail.openedAt).toBe(first);
    mail.opened = false;
    stampOpening(mail, { opened: false });
    expect(mail.openedAt).toBeNull();
    const kept = { opened: false, openedAt: first } as SentMail;
    stampOpening(kept, { opened: false, openedAt: first });
    expect(kept.openedAt).toBe(first);
  });
});
