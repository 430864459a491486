/**
 * SIGINT (a terminal's Ctrl-C) and SIGTERM (a supervisor), heard from the process's first line
 * (main.ts) rather than once it listens: a stop asked for while the service builds its app, opens
 * the embedded database or migrates aborts the start-up, which closes what it had opened and exits
 * 0 with "stopped", as a stop of the running service does (docs/operations.md, "Stopping").
 */
export class StopSignals {
  private received?: NodeJS.Signals;
  private readonly aborter = new AbortController();
  private stop?: (signal: NodeJS.Signals) => void;

  constructor() {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => this.take(signal));
  }

  private take(signal: NodeJS.Signals): void {
    if (!this.received) {
      this.received = signal;
      this.aborter.abort();
    }
    this.stop?.(signal);
  }

  /** Aborted once a stop is asked for: start-up's steps listen to it. */
  get abortSignal(): AbortSignal {
    return this.aborter.signal;
  }

  /** The signal that asked for the stop, if one did. */
  get stopRequested(): NodeJS.Signals | undefined {
    return this.received;
  }

  /** From now on a signal runs `stop` (the running service's shutdown); at once if one came already. */
  handOver(stop: (signal: NodeJS.Signals) => void): void {
    this.stop = stop;
    if (this.received) stop(this.received);
  }
}

/** Thrown by a start-up step that stopped because a stop was asked for (not a failure). */
export class StartStopped extends Error {
  constructor() {
    super('start-up stopped on request');
  }
}

/** Throws StartStopped when a stop has been asked for. */
export function checkNotStopped(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new StartStopped();
}
