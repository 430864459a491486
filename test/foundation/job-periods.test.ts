import type { ScheduledJob } from '../../src/jobs/job';
import { checkJobs, describeSchedule, isModuleOn, periodOf } from '../../src/jobs/periods';

/** The scheduler's period arithmetic (src/jobs/periods.ts): no database. */
const at = (iso: string) => new Date(iso);
const job = (over: Partial<ScheduledJob>): ScheduledJob => ({
  name: 'test.job',
  description: 'a test job',
  schedule: { every: 60_000 },
  run: async () => 0,
  ...over,
});

describe('a job every N milliseconds', () => {
  it('has periods aligned on the epoch, the same in every process', () => {
    expect(periodOf({ every: 15 * 60_000 }, at('2026-11-29T05:07:13.500Z'))).toEqual({
      start: at('2026-11-29T05:00:00.000Z'),
      next: at('2026-11-29T05:15:00.000Z'),
    });
    // A period's first millisecond belongs to it; the last one before the next to it as well.
    expect(periodOf({ every: 15 * 60_000 }, at('2026-11-29T05:15:00.000Z')).start).toEqual(
      at('2026-11-29T05:15:00.000Z'),
    );
    expect(periodOf({ every: 15 * 60_000 }, at('2026-11-29T05:14:59.999Z')).start).toEqual(
      at('2026-11-29T05:00:00.000Z'),
    );
  });

  it('ignores the time zone', () => {
    const now = at('2026-11-29T05:07:13Z');
    expect(periodOf({ every: 3_600_000 }, now, 'Asia/Kolkata')).toEqual(periodOf({ every: 3_600_000 }, now));
  });
});

describe('a job daily at HH:MM', () => {
  it("runs for the day whose HH:MM has passed, in the tenant's time zone", () => {
    // 06:00 in Helsinki (UTC+2 in winter) is 04:00 UTC.
    expect(periodOf({ dailyAt: '06:00' }, at('2026-11-29T05:00:00Z'), 'Europe/Helsinki')).toEqual({
      start: at('2026-11-29T04:00:00Z'),
      next: at('2026-11-30T04:00:00Z'),
    });
    // Before 06:00 there, the period is still yesterday's.
    expect(periodOf({ dailyAt: '06:00' }, at('2026-11-29T03:59:59Z'), 'Europe/Helsinki').start).toEqual(
      at('2026-11-28T04:00:00Z'),
    );
    // At the same instant, a tenant in New York (UTC-5) is still in the period of 28 November.
    expect(periodOf({ dailyAt: '06:00' }, at('2026-11-29T05:00:00Z'), 'America/New_York')).toEqual({
      start: at('2026-11-28T11:00:00Z'),
      next: at('2026-11-29T11:00:00Z'),
    });
  });

  it('is UTC without a time zone, or with one nobody knows', () => {
    const now = at('2026-11-29T05:00:00Z');
    expect(periodOf({ dailyAt: '03:30' }, now).start).toEqual(at('2026-11-29T03:30:00Z'));
    expect(periodOf({ dailyAt: '03:30' }, now, 'Mars/Olympus_Mons').start).toEqual(
      at('2026-11-29T03:30:00Z'),
    );
  });

  it('has days of 23 and 25 hours when the clocks change', () => {
    // Helsinki: clocks go from 03:00 to 04:00 on 29 March 2026, and back from 04:00 to 03:00 on 25 October.
    const spring = periodOf({ dailyAt: '06:00' }, at('2026-03-28T12:00:00Z'), 'Europe/Helsinki');
    expect(spring).toEqual({ start: at('2026-03-28T04:00:00Z'), next: at('2026-03-29T03:00:00Z') });
    const autumn = periodOf({ dailyAt: '06:00' }, at('2026-10-24T12:00:00Z'), 'Europe/Helsinki');
    expect(autumn).toEqual({ start: at('2026-10-24T03:00:00Z'), next: at('2026-10-25T04:00:00Z') });
  });

  it('runs a time the clocks skip that day once, an hour later; one that comes twice, the first time', () => {
    // 03:30 does not exist in Helsinki on 29 March 2026: the day's run is at 04:30 (01:30 UTC).
    expect(periodOf({ dailyAt: '03:30' }, at('2026-03-29T12:00:00Z'), 'Europe/Helsinki').start).toEqual(
      at('2026-03-29T01:30:00Z'),
    );
    // 03:30 comes twice on 25 October: the period starts at the first (UTC+3, 00:30 UTC).
    expect(periodOf({ dailyAt: '03:30' }, at('2026-10-25T12:00:00Z'), 'Europe/Helsinki').start).toEqual(
      at('2026-10-25T00:30:00Z'),
    );
  });
});

describe('declarations', () => {
  it('are refused at start when the scheduler could not run them', () => {
    expect(() => checkJobs([job({ name: 'NoDots' })])).toThrow(/dotted/);
    expect(() => checkJobs([job({}), job({})])).toThrow(/declared twice/);
    expect(() => checkJobs([job({ schedule: { every: 10 } })])).toThrow(/at least 1000/);
    expect(() => checkJobs([job({ schedule: { dailyAt: '24:00' } })])).toThrow(/HH:MM/);
    expect(() => checkJobs([job({ schedule: { dailyAt: '6:00' } })])).toThrow(/HH:MM/);
    expect(() => checkJobs([job({ perTenant: true, module: 'invoicing' })])).toThrow(/scopes/);
    expect(() => checkJobs([job({ module: 'finance' })])).toThrow(/per-tenant/);
    expect(() =>
      checkJobs([job({ perTenant: true, module: 'finance', schedule: { dailyAt: '06:00' } })]),
    ).not.toThrow();
  });

  it('are described as bms jobs lists them', () => {
    expect(describeSchedule(job({ schedule: { every: 15 * 60_000 } }))).toBe('every 15 min');
    expect(describeSchedule(job({ schedule: { every: 3_600_000 } }))).toBe('every 1 h');
    expect(describeSchedule(job({ schedule: { every: 1500 } }))).toBe('every 1500 ms');
    expect(describeSchedule(job({ schedule: { dailyAt: '03:30' } }))).toBe('daily at 03:30 UTC');
    expect(describeSchedule(job({ schedule: { dailyAt: '06:00' }, perTenant: true }))).toBe(
      "daily at 06:00 in the tenant's time zone",
    );
  });

  it("skip a tenant only when its scopes turn the job's module off", () => {
    expect(isModuleOn({ finance: true }, 'finance')).toBe(true);
    expect(isModuleOn({}, 'finance')).toBe(true);
    expect(isModuleOn(null, 'finance')).toBe(true);
    expect(isModuleOn({ finance: false }, 'finance')).toBe(false);
    expect(isModuleOn({ finance: false }, undefined)).toBe(true);
  });
});
