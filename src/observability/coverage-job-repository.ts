import type { MikroORM } from '@mikro-orm/core';

/**
 * Pending coverage jobs of all tenants, for the queue-depth gauge. The table belongs to the
 * configurator's calculation queue and may not exist yet (an older database, or before that work
 * lands): then the queue is empty by definition.
 */
export async function pendingCoverageJobs(orm: MikroORM): Promise<number> {
  const connection = orm.em.getConnection();
  const [table] = await connection.execute<{ name: string | null }[]>(
    "select to_regclass('coverage_job')::text as name",
  );
  if (!table?.name) return 0;
  const [row] = await connection.execute<{ n: number }[]>(
    "select count(*)::int as n from coverage_job where status = 'PENDING'",
  );
  return Number(row?.n ?? 0);
}
