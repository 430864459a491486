import { Backoff } from '../db/sessions';
import type { Logger } from '../logger';
import { onWork, type WorkQueue } from '../events/work-signals';

export interface Periodic {
  /** Stops looking and waits for a run under way. */
  stop(): Promise<void>;
}

/** How a queue's loop waits between looks. */
export interface QueuePolling {
  /** The wait after a look that found work, or a signal; it doubles after each look that found none. */
  firstMs: number;
  /** The longest wait of an idle loop. */
  maxMs: number;
}

/** The waits of an idle queue loop unless said: a look every 30 s at most once idle. */
export const IDLE_POLL_MAX_MS = 30_000;

/**
 * A queue's poll in this process (coverage jobs, thumbnails, tenant exports): work found in table
 * rows that any process may claim. Time-based work (once per period, whatever the number of
 * processes) is a scheduled job instead (job.ts).
 *
 * Runs `work` at once and again after a wait, one run at a time; `work` answers whether it found
 * anything. Each look is a statement and a deployment's processes are idle most of the time, so
 * the wait doubles after every look that found nothing, from `firstMs` up to `maxMs` (a quarter
 * more at most, so the processes drift apart), and starts again from `firstMs` after a look that
 * found work. A signal of `queue` in this process (work-signals.ts) ends the wait at once. A
 * failed run is logged with `failure` and counts as a look that found nothing. The timer keeps no
 * process alive.
 */
export function pollQueue(
  queue: WorkQueue,
  polling: QueuePolling,
  logger: Logger,
  failure: string,
  work: () => Promise<boolean>,
): Periodic {
  const backoff = new Backoff(polling.firstMs, Math.max(polling.firstMs, polling.maxMs));
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  /** A signal came during a look, which may have missed its work: the next look is at once. */
  let signalled = false;
  const stopSignals = onWork(queue, () => {
    // The work may commit just after the look this starts: the next look comes soon.
    backoff.reset();
    if (wake) wake();
    else signalled = true;
  });
  const idle = (ms: number) =>
    new Promise<void>((resolve) => {
      if (signalled) {
        signalled = false;
        return resolve();
      }
      wake = () => {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      };
      timer = setTimeout(wake, ms);
      timer.unref();
    });
  const loop = (async () => {
    while (!stopped) {
      let found = false;
      signalled = false;
      try {
        found = await work();
      } catch (err) {
        logger.warn({ err }, failure);
      }
      if (found) backoff.reset();
      if (!stopped) await idle(backoff.delay());
    }
  })();
  return {
    async stop() {
      stopped = true;
      stopSignals();
      wake?.();
      await loop;
    },
  };
}
