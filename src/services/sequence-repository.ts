import type { EntityManager } from '@mikro-orm/core';

/**
 * The increment of `tenant_sequence` (src/entities/tenant-sequence.ts): one atomic upsert that
 * locks the tenant's counter row until `em`'s transaction ends (sequences.ts says why), which no
 * read and write of the entity could do in one round trip.
 */
export async function incrementSequence(em: EntityManager, tenantId: string, name: string): Promise<number> {
  const rows = await em.getConnection().execute<{ value: string | number }[]>(
    `insert into tenant_sequence (tenant_id, name, value) values (?, ?, 1)
     on conflict (tenant_id, name) do update set value = tenant_sequence.value + 1
     returning value`,
    [tenantId, name],
    'all',
    em.getTransactionContext(),
  );
  return Number(rows[0].value);
}
