import { DateTime } from 'luxon';
import { TENANT_SCOPE_NAMES } from '../entities/tenant-settings';
import type { JobSchedule, ScheduledJob } from './job';

/**
 * A job's periods: the arithmetic alone, no database. Luxon does the time zones (a day that
 * clocks change on is 23 or 25 hours long; a time that does not exist that day, in the hour
 * skipped, moves on by the hour skipped).
 */
export interface Period {
  /** The start of the period `now` falls in: what a run claims. */
  start: Date;
  /** The start of the one after it: when the job is due again. */
  next: Date;
}

const DAILY = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** A time zone Luxon knows; UTC otherwise (a tenant's zone is checked when it is written). */
export function zoneOrUtc(timeZone: string | null | undefined): string {
  return timeZone && DateTime.local({ zone: timeZone }).isValid ? timeZone : 'UTC';
}

/**
 * The period of `schedule` that `now` falls in. `every`: [floor(now / every) * every, + every).
 * `dailyAt`: from the last time the clock of `timeZone` read HH:MM at or before `now`, to the
 * next time it does.
 */
export function periodOf(schedule: JobSchedule, now: Date, timeZone = 'UTC'): Period {
  if ('every' in schedule) {
    const start = Math.floor(now.getTime() / schedule.every) * schedule.every;
    return { start: new Date(start), next: new Date(start + schedule.every) };
  }
  const [hour, minute] = dailyTime(schedule.dailyAt);
  const local = DateTime.fromJSDate(now, { zone: zoneOrUtc(timeZone) });
  // From the day's first moment, so a time that comes twice is taken at its first coming.
  const at = (day: DateTime) => day.startOf('day').set({ hour, minute });
  let start = at(local);
  if (start.toMillis() > now.getTime()) start = at(local.minus({ days: 1 }));
  return { start: start.toJSDate(), next: at(start.plus({ days: 1 })).toJSDate() };
}

function dailyTime(text: string): [number, number] {
  const match = DAILY.exec(text);
  if (!match) throw new Error(`dailyAt must be 'HH:MM' (00:00 to 23:59), got "${text}"`);
  return [Number(match[1]), Number(match[2])];
}

/** How `bms jobs` and the docs show a schedule. */
export function describeSchedule(job: ScheduledJob): string {
  const { schedule } = job;
  if ('dailyAt' in schedule)
    return `daily at ${schedule.dailyAt} ${job.perTenant ? "in the tenant's time zone" : 'UTC'}`;
  const ms = schedule.every;
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['min', 60_000],
    ['s', 1000],
  ] as const)
    if (ms % size === 0) return `every ${ms / size} ${unit}`;
  return `every ${ms} ms`;
}

/** Refuses a list of jobs the scheduler could not run as declared: a mistake of code, found at start. */
export function checkJobs(jobs: readonly ScheduledJob[]): void {
  const seen = new Set<string>();
  for (const job of jobs) {
    if (!/^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$/.test(job.name))
      throw new Error(`job "${job.name}": a name is dotted lower-case words, e.g. 'invoices.overdue'`);
    if (seen.has(job.name)) throw new Error(`job "${job.name}" is declared twice`);
    seen.add(job.name);
    const { schedule } = job;
    if ('every' in schedule) {
      if (!Number.isInteger(schedule.every) || schedule.every < 1000)
        throw new Error(`job "${job.name}": every must be whole milliseconds, at least 1000`);
    } else dailyTime(schedule.dailyAt);
    if (job.module !== undefined && !(TENANT_SCOPE_NAMES as readonly string[]).includes(job.module))
      throw new Error(`job "${job.name}": module "${job.module}" is not one of the tenant's scopes`);
    if (job.module !== undefined && !job.perTenant)
      throw new Error(`job "${job.name}": a module applies to per-tenant jobs only`);
  }
}

/** A tenant's functional area is on unless its scopes turn it off (a new tenant has them all on). */
export function isModuleOn(scopes: Record<string, unknown> | null | undefined, module: string | undefined) {
  return module === undefined || scopes?.[module] !== false;
}
