import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { recommendedFlags } from '../src/runtime-flags';
import type { MemoryProbe } from './memory-probe';

/**
 * The servers under load, each a child process of its own, so that neither shares an event
 * loop with the other or with the load generator (which runs in the orchestrating process).
 */
export interface Server {
  name: string;
  base: string;
  pid: number;
  /** Resident memory of the process now, from /proc (Linux); undefined elsewhere. */
  rss(): number | undefined;
  /**
   * CPU seconds (user + system) the process has used so far, from /proc (Linux); undefined
   * elsewhere. The service's include its cluster workers'.
   */
  cpu(): number | undefined;
  stop(): Promise<void>;
  /** The service's memory as V8 sees it, after a full collection when `gc` (`memoryProbe` services only). */
  probe?(gc: boolean): Promise<MemoryProbe>;
}

const ROOT = path.resolve(__dirname, '..', '..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

function rssOf(pid: number): number | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** utime + stime of /proc/<pid>/stat, in clock ticks of 1/100 s (the Linux default, USER_HZ). */
export function cpuOf(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/**
 * The CPU seconds of `pid` and of its child processes (a cluster's workers), as `cpuOf` counts
 * them; each process's threads are in its own figure.
 */
export function cpuOfTree(pid: number): number | undefined {
  const own = cpuOf(pid);
  if (own === undefined) return undefined;
  let children: number[] = [];
  try {
    children = fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((tid) => fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' '))
      .filter(Boolean)
      .map(Number);
  } catch {
    /* the process ended meanwhile */
  }
  return children.reduce((sum, child) => sum + (cpuOfTree(child) ?? 0), own);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

async function waitReady(url: string, child: ChildProcess, name: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode} while starting`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} did not become ready within 60 s`);
}

/**
 * The Node flags `npm start` gives the service (a larger young generation, see the README), read
 * from its script so the bench measures the service as it is started.
 */
export function startFlags(root = ROOT): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const flags = /\bnode((?:\s+--\S+)*)\s+dist\/src\/main\.js/.exec(pkg.scripts.start)?.[1] ?? '';
  return flags.split(/\s+/).filter(Boolean);
}

/**
 * What the service and the baseline run with on the bench's own Node: `npm start`'s flags and those
 * docs/deployment.md has an operator add on this Node (src/runtime-flags.ts). Not the peer's: it
 * may run on another Node, which could refuse them.
 */
const serviceFlags = (root = ROOT) => [...startFlags(root), ...recommendedFlags()];

export interface ServiceOptions {
  databaseUrl: string;
  jwtSecret: string;
  poolSize: number;
  logLevel: string;
  /** Directory for a V8 CPU profile of the whole life of the process. */
  profileDir?: string;
  /** WEB_CONCURRENCY: worker processes under a cluster primary (default 1: one process). */
  workers?: number;
  /** Rate limits in this Redis (shared by the workers); without it, `limitsOff` must be set for workers > 1. */
  redisUrl?: string;
  /** Rate limits off rather than out of reach (for comparing processes without Redis). */
  limitsOff?: boolean;
  /** The checkout whose build to start (BENCH_COMPARE_DIR); this one by default. */
  root?: string;
  /** A certificate the service trusts besides the system's (NODE_EXTRA_CA_CERTS): the bench's issuer. */
  caFile?: string;
  /** Preloads bench/memory-probe.ts with `--expose-gc`, for the soak's forced-collection samples. */
  memoryProbe?: boolean;
}

const migrationsOf = (root: string) =>
  fs
    .readdirSync(path.join(root, 'dist', 'src', 'migrations'))
    .filter((f) => /^Migration.*\.js$/.test(f))
    .sort();

/**
 * Whether the service of `root` can share this checkout's database: the same migrations under the
 * same names, so that it finds every one applied, migrates nothing and meets the schema it was
 * built for. A build from before a migration expects what that migration changed (a dropped
 * column); one from before a rename would find its names unrecorded and run them again.
 */
export function sameMigrations(root: string): boolean {
  const own = migrationsOf(ROOT);
  const theirs = migrationsOf(root);
  return own.length === theirs.length && own.every((m, k) => m === theirs[k]);
}

/** The service as deployed: the build output, `node dist/src/main.js`, configured by its environment. */
export async function startService(options: ServiceOptions): Promise<Server> {
  const port = await freePort();
  const root = options.root ?? ROOT;
  const child = fork(path.join(root, 'dist', 'src', 'main.js'), [], {
    cwd: root,
    execArgv: [
      ...serviceFlags(root),
      ...(options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : []),
      ...(options.memoryProbe ? ['--expose-gc', '--require', path.join(__dirname, 'memory-probe.js')] : []),
    ],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: options.databaseUrl,
      JWT_SECRET: options.jwtSecret,
      DB_POOL_SIZE: String(options.poolSize),
      LOG_LEVEL: options.logLevel,
      // The limiters stay in the request path (their cost is part of the service's), but with
      // limits no benchmark reaches: a 429 would measure nothing.
      RATE_LIMIT_PER_CREDENTIAL: options.limitsOff ? '0' : '1000000000',
      RATE_LIMIT_PER_TENANT: options.limitsOff ? '0' : '1000000000',
      WEB_CONCURRENCY: String(options.workers ?? 1),
      // Redis only where asked for: the bench's own environment may name one for the comparison.
      REDIS_URL: options.redisUrl ?? '',
      REDIS_KEY_PREFIX: `bms-bench:${process.pid}:${port}:`,
      ...(options.caFile ? { NODE_EXTRA_CA_CERTS: options.caFile } : {}),
    },
    // Request logs go nowhere, as they would to a log shipper that keeps up; errors stay visible.
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitReady(`${base}/readyz`, child, 'the service');
  // A cluster answers once its first worker listens; the others follow within moments.
  if ((options.workers ?? 1) > 1) await new Promise((r) => setTimeout(r, 3000));
  return {
    name: options.root ? `service of ${options.root}` : 'service',
    base,
    pid: child.pid!,
    rss: () => rssOf(child.pid!),
    cpu: () => cpuOfTree(child.pid!),
    stop: () => stopChild(child),
    ...(options.memoryProbe ? { probe: (gc: boolean) => askProbe(child, gc) } : {}),
  };
}

let probes = 0;
function askProbe(child: ChildProcess, gc: boolean): Promise<MemoryProbe> {
  const id = ++probes;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off('message', answer);
      reject(new Error('the service did not answer the memory probe'));
    }, 30_000);
    const answer = (m: Partial<MemoryProbe>) => {
      if (m?.memoryProbe !== id) return;
      clearTimeout(timer);
      child.off('message', answer);
      resolve(m as MemoryProbe);
    };
    child.on('message', answer);
    child.send({ memoryProbe: id, gc });
  });
}

export async function startBaseline(options: Omit<ServiceOptions, 'logLevel'>): Promise<Server> {
  const child = fork(path.join(ROOT, 'dist', 'bench', 'baseline.js'), [], {
    cwd: ROOT,
    // The same Node settings as the service: the gap between them is the code, not the flags.
    execArgv: serviceFlags(),
    env: {
      ...process.env,
      PORT: '0',
      DATABASE_URL: options.databaseUrl,
      JWT_SECRET: options.jwtSecret,
      DB_POOL_SIZE: String(options.poolSize),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m.port));
    child.once('exit', (code) => reject(new Error(`the baseline exited with code ${code}`)));
  });
  return {
    name: 'baseline',
    base: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    rss: () => rssOf(child.pid!),
    cpu: () => cpuOf(child.pid!),
    stop: () => stopChild(child),
  };
}

/** Where the peer lives: a folder of its own with its own lockfile, so the service's `npm ci` stays as it is. */
const PEER_DIR = path.join(ROOT, 'bench', 'peer');
const PEER_NODE = path.join(PEER_DIR, 'node_modules', '.bin', 'node');

/**
 * Installs the peer (PostGraphile 5, and the Node 22 it needs, from the npm registry's `node`
 * package) into bench/peer/node_modules on first use, from its lockfile.
 */
function installPeer(): void {
  if (fs.existsSync(PEER_NODE) && fs.existsSync(path.join(PEER_DIR, 'node_modules', 'postgraphile'))) return;
  console.log('Installing the peer (PostGraphile 5 on Node 22) into bench/peer/node_modules ...');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: PEER_DIR,
    stdio: 'inherit',
  });
}

/** The Node version the peer runs on (`node` when given, else its own). */
export function peerNodeVersion(node?: string): string {
  installPeer();
  return execFileSync(node ?? PEER_NODE, ['--version'], { encoding: 'utf8' }).trim();
}

/**
 * PostGraphile 5 as the peer (bench/peer/server.mjs), on its own Node unless `node` names
 * another (to compare both on one runtime), the same database and secret.
 */
export async function startPeer(
  options: Omit<ServiceOptions, 'logLevel'> & { node?: string },
): Promise<Server> {
  installPeer();
  const child = fork(path.join(PEER_DIR, 'server.mjs'), [], {
    cwd: PEER_DIR,
    execPath: options.node ?? PEER_NODE,
    // The same young-generation flag as the service: the gap between them is the code.
    execArgv: startFlags(),
    env: {
      ...process.env,
      NODE_ENV: 'production',
      GRAPHILE_ENV: 'production',
      PORT: '0',
      DATABASE_URL: options.databaseUrl,
      JWT_SECRET: options.jwtSecret,
      DB_POOL_SIZE: String(options.poolSize),
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m.port));
    child.once('exit', (code) => reject(new Error(`the peer exited with code ${code}`)));
  });
  return {
    name: 'postgraphile',
    base: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    rss: () => rssOf(child.pid!),
    cpu: () => cpuOf(child.pid!),
    stop: () => stopChild(child),
  };
}
