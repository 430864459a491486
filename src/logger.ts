import pino from 'pino';

/** Structured JSON logs. Credentials and personal data never go in: only ids, routes and timings. */
export function createLogger(level: string) {
  return pino({
    level,
    base: undefined,
    redact: {
      paths: ['req.headers.authorization', '*.authorization', '*.token', '*.password'],
      remove: true,
    },
  });
}

export type Logger = ReturnType<typeof createLogger>;
