import type { EntityManager } from '@mikro-orm/core';
import { queryRows } from '../../db/orm-bypass/statements';

/**
 * The bookings' statements that are locks rather than a record's read or write: the scheduled
 * job's claims (FOR UPDATE SKIP LOCKED) and the public booking's lock of its person.
 */

interface IdRow {
  id: string;
}

/**
 * The ids of the tenant's CONFIRMED bookings matching `where` (its parameters from `$2`), at most
 * `limit`, soonest first, locked for this transaction; rows another process holds are skipped,
 * and one it changed meanwhile is judged as it committed, so two runs at once never take the same
 * booking.
 */
async function claimConfirmed(
  em: EntityManager,
  tenantId: string,
  where: string,
  params: readonly unknown[],
  limit: number,
): Promise<string[]> {
  const rows = await queryRows<IdRow>(
    em,
    `select id from booking where tenant_id = $1 and status = 'CONFIRMED' and ${where}
     order by start_time, id limit ${limit} for update skip locked`,
    [tenantId, ...params],
  );
  return rows.map((r) => r.id);
}

/**
 * Bookings not reminded yet, with an e-mail, starting within `leadMinutes` after `now` and made
 * before their reminder time (booking-jobs.ts's reminderDue, said in SQL).
 */
export const claimRemindable = (
  em: EntityManager,
  tenantId: string,
  now: Date,
  leadMinutes: number,
  limit: number,
): Promise<string[]> =>
  claimConfirmed(
    em,
    tenantId,
    `reminded_at is null and email is not null and start_time > $2
       and start_time <= $2::timestamptz + make_interval(mins => $3::int)
       and (created is null or created <= start_time - make_interval(mins => $3::int))`,
    [now, leadMinutes],
    limit,
  );

/**
 * Bookings that ended by `now`: their end time, else start and duration, else `defaultMinutes`
 * after the start (booking-jobs.ts's bookingEnd, said in SQL).
 */
export const claimEnded = (
  em: EntityManager,
  tenantId: string,
  now: Date,
  defaultMinutes: number,
  limit: number,
): Promise<string[]> =>
  claimConfirmed(
    em,
    tenantId,
    `coalesce(end_time, start_time + make_interval(mins => coalesce(duration, $3::int))) <= $2`,
    [now, defaultMinutes],
    limit,
  );

/**
 * Locks the employee's row for this transaction (FOR UPDATE), so bookings of one person are
 * decided one after the other; false when the tenant has no such employee.
 */
export async function lockEmployee(
  em: EntityManager,
  tenantId: string,
  employeeId: string,
): Promise<boolean> {
  const locked = await queryRows<IdRow>(
    em,
    'select id from employee where tenant_id = $1 and id = $2 for update',
    [tenantId, employeeId],
  );
  return locked.length > 0;
}
