import type { EntityManager } from '@mikro-orm/core';
import { queryRows } from '../../db/orm-bypass/statements';

interface IdRow {
  id: string;
}

/**
 * The ids of the tenant's leads whose next action is due by `now` and was not reminded since its
 * date came: an owner, a status not among `closed`, and `next_action_notified_at` before
 * `next_action_due_date` (two columns compared, which is why this is a statement), at most
 * `limit`, soonest due first.
 */
export async function dueLeadActionIds(
  em: EntityManager,
  tenantId: string,
  now: Date,
  closed: readonly string[],
  limit: number,
): Promise<string[]> {
  const rows = await queryRows<IdRow>(
    em,
    `select id from lead where tenant_id = $1 and next_action_due_date <= $2 and owner_id is not null
       and status <> all($3::text[])
       and (next_action_notified_at is null or next_action_notified_at < next_action_due_date)
     order by next_action_due_date, id limit ${limit}`,
    [tenantId, now, closed],
  );
  return rows.map((r) => r.id);
}
