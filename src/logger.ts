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

export type Logger = ReturnType<typeof createLogger>;
