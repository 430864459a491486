import pino from 'pino';
import { safeError } from './observability/log-safety';

/** Structured JSON logs. Credentials and personal data never go in: only ids, routes and timings. */
export function createLogger(level: string, destination?: pino.DestinationStream) {
  return pino(
    {
      level,
      base: undefined,
      redact: {
        paths: [
          'authorization',
          'token',
          'password',
          'req.headers.authorization',
          '*.authorization',
          '*.token',
          '*.password',
        ],
        remove: true,
      },
      serializers: { err: safeError },
    },
    destination,
  );
}

/**
 * The service's stdout: lines are gathered and written a few kilobytes at a time, at least every
 * quarter of a second, and whatever is left is written when the process exits. pino's default
 * writes each line on its own, and a request's line was its costliest write after the answer
 * and the database's (see bench/README.md). Lost on a hard kill: at most the last 250 ms of lines.
 */
export function bufferedStdout(): pino.DestinationStream {
  return pino.destination({ dest: 1, sync: false, minLength: 8 * 1024, periodicFlush: 250 });
}

export type Logger = ReturnType<typeof createLogger>;
