import path from 'node:path';
import { eventSettings, type EventSettings } from './events/settings';

/** Everything the service reads from its environment, read once. */
export interface Config {
  production: boolean;
  port: number;
  host: string;
  /** PostgreSQL server URL; undefined means the embedded PGlite database under dataDir. */
  databaseUrl?: string;
  dataDir: string;
  /** Explicit secret from JWT_SECRET; in embedded mode a generated one is used when unset. */
  jwtSecret?: string;
  jwtIssuer?: string;
  jwtAudience?: string;
  logLevel: string;
  /** Connections in the pool when running on a PostgreSQL server. */
  poolSize: number;
  /** Browser origins allowed by CORS (`*` for any). */
  corsOrigins: string[];
  /** Requests per minute per credential and per tenant; 0 turns a limit off. */
  rateLimits: { perCredential: number; perTenant: number; windowMs: number };
  /** GraphQL introspection and the Sandbox page (default: on outside production). */
  graphqlIntrospection: boolean;
  /** Webhooks, notification e-mail and the event worker (events/settings.ts). */
  events: EventSettings;
}

export function intFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const production = env.NODE_ENV === 'production';
  const databaseUrl = env.DATABASE_URL || undefined;
  const jwtSecret = env.JWT_SECRET || undefined;
  if ((databaseUrl || production) && !jwtSecret) {
    throw new Error('JWT_SECRET is required with DATABASE_URL or NODE_ENV=production (at least 32 bytes)');
  }
  if (jwtSecret && Buffer.byteLength(jwtSecret) < 32) {
    throw new Error('JWT_SECRET must be at least 32 bytes long');
  }
  return {
    production,
    port: intFrom(env.PORT, 4000, 'PORT'),
    host: env.HOST || '127.0.0.1',
    databaseUrl,
    dataDir: path.resolve(env.DATA_DIR || './.data'),
    jwtSecret,
    jwtIssuer: env.JWT_ISSUER || undefined,
    jwtAudience: env.JWT_AUDIENCE || undefined,
    logLevel: env.LOG_LEVEL || (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    poolSize: intFrom(env.DB_POOL_SIZE, 10, 'DB_POOL_SIZE'),
    corsOrigins: (env.CORS_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    rateLimits: {
      perCredential: intFrom(env.RATE_LIMIT_PER_CREDENTIAL, 1200, 'RATE_LIMIT_PER_CREDENTIAL'),
      perTenant: intFrom(env.RATE_LIMIT_PER_TENANT, 6000, 'RATE_LIMIT_PER_TENANT'),
      windowMs: 60_000,
    },
    graphqlIntrospection: env.GRAPHQL_INTROSPECTION ? env.GRAPHQL_INTROSPECTION === 'true' : !production,
    events: eventSettings(env),
  };
}
