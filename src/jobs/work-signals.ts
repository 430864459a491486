/**
 * In-process wake-ups of the queue loops (coverage jobs, tenant exports, thumbnails). A loop with
 * nothing to do looks at its table less and less often (periodic.ts); whatever this process
 * creates for it says so here, and the loop looks at once. Work created by another process is
 * found at that loop's next look.
 *
 * A signal is given where the work is written, usually before its transaction commits: the loop
 * it wakes looks again after its shortest wait when that first look found nothing yet.
 */
export type WorkQueue = 'coverage' | 'exports' | 'thumbnails';

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
