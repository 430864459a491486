import { randomBytes } from 'node:crypto';
import path from 'node:path';

/** What one run of the benchmark does, read once from the environment. */
export interface BenchConfig {
  /** The PostgreSQL server the bench database is created on (its own database is not touched). */
  serverUrl: string;
  /** True when no server answered and the run uses an embedded PGlite: figures are not comparable. */
  embedded: boolean;
  jwtSecret: string;
  /** Seconds of load per scenario and per target, in each round. */
  duration: number;
  /** Rounds over every scenario and target, interleaved; the report gives medians. */
  rounds: number;
  connections: number;
  /** Features of the main tenant (the issue asks for at least 100,000). */
  features: number;
  /** Features of the write tenant, loaded with the main tenant's shape; only the write scenarios use it. */
  writeFeatures: number;
  /** Adds tenants until the feature table holds a million rows across 100 tenants. */
  large: boolean;
  /** Seconds of steady load for the memory soak; 0 = no soak. */
  soakSeconds: number;
  /** Requests per second during the soak. */
  soakRate: number;
  /** Keeps the bench database afterwards. */
  keep: boolean;
  /** Runs the service under `node --cpu-prof` and summarises the profile. */
  profile: boolean;
  /** The target the profile drives (rest unless BENCH_PROFILE_TARGET names another of the service's). */
  profileTarget: 'rest' | 'graphql' | 'graphql-columns';
  /** Rows per table of the profile's summary (BENCH_PROFILE_ROWS, 15). */
  profileRows: number;
  /** The service's log level: `info` logs a line per request, as in production. */
  logLevel: string;
  poolSize: number;
  /** WEB_CONCURRENCY of the processes comparison (find and create, one process against this many); 0 or 1 skips it. */
  workers: number;
  /** Only these scenarios (find, search20, search200, create, update, delete, bulkdelete, mixed); all when empty. */
  only: string[];
  /**
   * Only these targets (BENCH_TARGETS, comma-separated; all when empty), each with its `*-compare`
   * twin: a comparison of two checkouts need not wait for the peer's and the floor's runs.
   */
  targets: string[];
  /**
   * Another checkout, built with `npm run build`, whose service runs as one more target
   * (rest-compare, graphql-compare, graphql-columns-compare) in the same rounds on the same database.
   */
  compareDir?: string;
  /**
   * Where the compared checkout runs (bench/compared.ts): `auto` shares this database when its
   * migrations are among these and gives it one of its own otherwise; `own` always; `shared` never.
   */
  compareDatabase: 'auto' | 'own' | 'shared';
  /** A Node binary to run the peer on instead of its own Node 22 (BENCH_PEER_NODE): both on one runtime. */
  peerNode?: string;
}

export const DEFAULT_SERVER_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer of at least ${min}`);
  return n;
}

const flag = (env: NodeJS.ProcessEnv, name: string) => env[name] === '1' || env[name] === 'true';

function profileTarget(raw: string | undefined): BenchConfig['profileTarget'] {
  if (!raw) return 'rest';
  if (raw === 'rest' || raw === 'graphql' || raw === 'graphql-columns') return raw;
  throw new Error('BENCH_PROFILE_TARGET must be rest, graphql or graphql-columns');
}

function compareDatabase(raw: string | undefined): BenchConfig['compareDatabase'] {
  if (!raw) return 'auto';
  if (raw === 'auto' || raw === 'own' || raw === 'shared') return raw;
  throw new Error('BENCH_COMPARE_DATABASE must be auto, own or shared');
}

export function benchConfig(env: NodeJS.ProcessEnv = process.env): BenchConfig {
  return {
    serverUrl: env.DATABASE_URL || DEFAULT_SERVER_URL,
    embedded: false,
    // A throw-away secret: tokens of a bench run are worth nothing after it.
    jwtSecret: env.JWT_SECRET || randomBytes(32).toString('hex'),
    duration: int(env, 'BENCH_DURATION', 10, 1),
    rounds: int(env, 'BENCH_ROUNDS', 3, 1),
    connections: int(env, 'BENCH_CONNECTIONS', 10, 1),
    features: int(env, 'BENCH_FEATURES', 100_000, 1000),
    writeFeatures: int(env, 'BENCH_WRITE_FEATURES', 10_000, 1000),
    large: flag(env, 'BENCH_LARGE'),
    soakSeconds: int(env, 'BENCH_SOAK_SECONDS', 0),
    soakRate: int(env, 'BENCH_SOAK_RATE', 50, 1),
    keep: flag(env, 'BENCH_KEEP'),
    profile: flag(env, 'BENCH_PROFILE'),
    profileTarget: profileTarget(env.BENCH_PROFILE_TARGET),
    profileRows: int(env, 'BENCH_PROFILE_ROWS', 15, 1),
    logLevel: env.BENCH_LOG_LEVEL || 'info',
    poolSize: int(env, 'DB_POOL_SIZE', 10, 1),
    workers: int(env, 'BENCH_WORKERS', 2),
    only: (env.BENCH_SCENARIOS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    targets: (env.BENCH_TARGETS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    compareDir: env.BENCH_COMPARE_DIR || undefined,
    compareDatabase: compareDatabase(env.BENCH_COMPARE_DATABASE),
    // From where the bench was started: the peer itself starts in bench/peer/.
    peerNode: env.BENCH_PEER_NODE ? path.resolve(env.BENCH_PEER_NODE) : undefined,
  };
}
