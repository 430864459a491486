import type { EntityManager } from '@mikro-orm/core';
import { actorOf } from '../../db/tenancy';
import { HistoryType } from '../../entities/history-entry';
import { historyEntry } from '../../history/recorder';
import { StockBatch } from './entities/stock-batch';
import { StockInventory } from './entities/stock-inventory';

const DAY_MS = 24 * 3600_000;

/**
 * The daily expiry report of one tenant (`em` bound to it, in a transaction): every batch with
 * stock whose expiration date passed in the day up to `now` gets an entry in its inventory's
 * history, which its `events` and history show and which no deduction, reservation or transfer
 * takes from any more (stock-ledger.ts). Run once a day, each batch is reported once. Answers
 * how many batches it reported.
 */
export async function reportExpiredBatches(em: EntityManager, now: Date): Promise<number> {
  const actor = actorOf(em);
  if (!actor) throw new Error('the expiry report needs a tenant-bound EntityManager');
  const batches = await em.find(
    StockBatch,
    { expirationDate: { $gt: new Date(now.getTime() - DAY_MS), $lte: now }, quantity: { $gt: 0 } },
    { orderBy: { inventoryId: 'asc', expirationDate: 'asc', id: 'asc' } },
  );
  for (const b of batches)
    em.persist(
      historyEntry(actor, {
        recordType: StockInventory.name,
        recordId: b.inventoryId,
        type: HistoryType.UPDATE,
        description: `Batch ${b.batchNumber ?? '(no number)'} at ${b.locationId ?? '(no location)'}: ${Number(b.quantity)} expired on ${new Date(b.expirationDate!).toISOString()} and is no longer offered`,
        changes: null,
        at: now,
      }),
    );
  await em.flush();
  return batches.length;
}
