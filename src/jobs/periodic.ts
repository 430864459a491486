import type { Logger } from '../logger';

export interface Periodic {
  /** Stops the timer and waits for a run under way. */
  stop(): Promise<void>;
}

/**
 * A queue's poll in this process (thumbnails, tenant exports): work found in table rows that any
 * process may claim, looked for every few seconds. Time-based work (once per period, whatever the
 * number of processes) is a scheduled job instead (job.ts).
 *
 * Runs `work` at once and then every `intervalMs`, one run at a time (a turn that comes while one
 * runs waits for it); a failed run is logged with `failure` and tried again at the next turn. The
 * timer keeps no process alive.
 */
export function runPeriodically(
  intervalMs: number,
  logger: Logger,
  failure: string,
  work: () => Promise<void>,
): Periodic {
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = running.then(() => work().catch((err: unknown) => logger.warn({ err }, failure)));
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
