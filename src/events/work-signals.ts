import type { EntityManager } from '@mikro-orm/core';
import { notifyOnCommit } from './work-signal-repository';

/**
 * Wake-ups of the queue loops (coverage jobs, tenant exports, thumbnails, invoice PDFs). A loop with nothing to
 * do looks at its table less and less often (periodic.ts); whatever creates work for it says so,
 * and the loops look at once:
 * - in this process, at once (`signalWork`), usually before the work's transaction commits: a
 *   loop whose look comes too early looks again after its shortest wait;
 * - in every process, when the transaction commits (`notifyWork`: a NOTIFY on `WORK_CHANNEL`,
 *   which the live hub's listening connection hears and hands to `signalWork`). A notification
 *   lost while a listener reconnects only leaves the work to that loop's next look.
 */
export type WorkQueue = 'coverage' | 'exports' | 'thumbnails' | 'invoice-pdfs';

/** The channel of the queues' wake-ups; its payload is the queue's name. */
export const WORK_CHANNEL = 'bms_work';
const QUEUES: readonly string[] = ['coverage', 'exports', 'thumbnails', 'invoice-pdfs'] satisfies WorkQueue[];

export const isWorkQueue = (name: string): name is WorkQueue => QUEUES.includes(name);

const listeners = new Map<WorkQueue, Set<() => void>>();

/** Tells the loops of `queue` in this process that work was just created. */
export function signalWork(queue: WorkQueue): void {
  for (const listener of [...(listeners.get(queue) ?? [])]) listener();
}

/** Calls `listener` at every signal of `queue`; returns what stops it. */
export function onWork(queue: WorkQueue, listener: () => void): () => void {
  let set = listeners.get(queue);
  if (!set) listeners.set(queue, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/**
 * Wakes the loops of `queue` in this process now and in every process once `em`'s transaction
 * commits (nothing if it rolls back). A NOTIFY makes commits that send one take turns, so it is
 * sent only where work is created, never per record.
 */
export async function notifyWork(em: EntityManager, queue: WorkQueue): Promise<void> {
  await notifyOnCommit(em, WORK_CHANNEL, queue);
  signalWork(queue);
}
