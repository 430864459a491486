import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import { Client } from 'pg';

/**
 * The service and the CLI as separate processes, run from the TypeScript sources (see
 * register-ts.js), for what only a process shows: signals, exit codes, stdout and stderr.
 */
const ROOT = path.resolve(__dirname, '../..');
const REGISTER = path.join(__dirname, 'register-ts.js');

/** The environment of a child: this one's, minus what the test run sets for itself. */
export function childEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info' };
  for (const key of ['NODE_ENV', 'DATABASE_URL', 'JWT_SECRET', 'TEST_DATABASE_URL', 'PORT', 'DATA_DIR'])
    delete env[key];
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

export interface Running {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /**
   * Resolves with the exit code (or the signal's name) once the process has ended and its output
   * has been read: `exit` can come before the last of a pipe's data (a command's answer read then
   * was missing). `at` is when it exited.
   */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

/** Runs `node <script> ...args` from the sources, in a process group of its own. */
export function runSource(script: string, args: string[], env: NodeJS.ProcessEnv): Running {
  return watched(
    spawn(process.execPath, ['-r', REGISTER, path.join(ROOT, script), ...args], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own group, so a Ctrl-C can be imitated by signalling the whole group.
      detached: true,
    }),
  );
}

/** A child started with piped output, its output gathered and its end awaited (`Running`). */
export function watched(child: ChildProcess): Running {
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => {
      const ended = { code, signal, at: Date.now() };
      // A process it started and left running may hold the pipes open: its output is not waited for.
      const timer = setTimeout(() => resolve(ended), 2_000);
      void closed.then(() => {
        clearTimeout(timer);
        resolve(ended);
      });
    }),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** The service (src/main.ts) started and listening; rejects with its output if it ends first. */
export async function startService(env: NodeJS.ProcessEnv, timeoutMs = 240_000): Promise<Running> {
  const service = runSource('src/main.ts', [], env);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error('the service did not start in time')), timeoutMs);
    const fail = (err: Error) => {
      clearTimeout(timer);
      reject(new Error(`${err.message}\nstdout:\n${service.stdout()}\nstderr:\n${service.stderr()}`));
    };
    service.child.stdout!.on('data', () => {
      if (service.stdout().includes('"msg":"listening"')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void service.exited.then(({ code }) =>
      fail(new Error(`the service exited with ${code} during start-up`)),
    );
  });
  return service;
}

/**
 * Service processes a test starts with `env()` and settings of each start's own, stopped with
 * SIGTERM (each must exit 0); `killAll` ends whatever a failed test left running.
 */
export function serviceProcesses(env: () => NodeJS.ProcessEnv) {
  const running: Running[] = [];
  return {
    async start(extra: Record<string, string>): Promise<Running> {
      const service = await startService({ ...env(), ...extra });
      running.push(service);
      return service;
    },
    async stop(service: Running): Promise<void> {
      service.child.kill('SIGTERM');
      expect((await service.exited).code).toBe(0);
    },
    killAll(): void {
      for (const r of running) if (r.child.exitCode === null) r.child.kill('SIGKILL');
    },
  };
}

/** The pino lines of an output at error level or above (pino's error is 50). */
export function errorLines(output: string): string[] {
  return output.split('\n').filter((line) => {
    if (!line.startsWith('{')) return false;
    try {
      return (JSON.parse(line) as { level?: number }).level! >= 50;
    } catch {
      return false;
    }
  });
}

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A fresh, empty database on the PostgreSQL server at DATABASE_URL; drop() removes it. */
export async function freshServerDatabase(
  label: string,
): Promise<{ url: string; admin: Client; drop(): Promise<void> }> {
  const server = new URL(process.env.DATABASE_URL!);
  const name = `${process.env.TEST_DATABASE_PREFIX ?? `bms_test_${Date.now()}`}_${label}`;
  const admin = new Client({ connectionString: server.toString() });
  await admin.connect();
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.query(`create database "${name}"`);
  const url = new URL(server.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    admin,
    async drop() {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

export const randomSecret = () => randomBytes(32).toString('hex');

/** What a CLI command left: its exit code and both outputs. */
interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The operators' CLI (src/cli/main.ts) as a pipe sees it, with `env()` read at each call (tests
 * set it in beforeAll): `run` gives the exit code and both outputs; `ok` expects exactly one line
 * of JSON on stdout and nothing on stderr, and parses it; `fails` expects nothing on stdout and
 * one `bms: ...` line on stderr, and gives the exit code with that line.
 */
export function cliRunner(env: () => NodeJS.ProcessEnv) {
  return checkedCli(async (args) => {
    const cli = runSource('src/cli/main.ts', args, env());
    const { code } = await cli.exited;
    return { code, stdout: cli.stdout(), stderr: cli.stderr() };
  });
}

/**
 * The same commands run in the test's own process, through what src/cli/main.ts calls, for files
 * that test what a command does rather than the process around it (test/lifecycle/cli-process.test.ts
 * holds the process to its exit codes and outputs): most of a CLI process's CPU is loading the
 * service's modules, which the test has loaded already.
 */
export function cliCommands(env: () => NodeJS.ProcessEnv) {
  return checkedCli(async (args) => {
    // Loaded on first use, in the file's realm: a file that never runs a command never loads it.
    const { runCommand, failureOf } = await import('../../src/cli/commands');
    try {
      return { code: 0, stdout: `${await runCommand(args, env())}\n`, stderr: '' };
    } catch (err) {
      const { code, line } = failureOf(err);
      return { code, stdout: '', stderr: `${line}\n` };
    }
  });
}

function checkedCli(run: (args: string[]) => Promise<CliRun>) {
  return {
    run: (...args: string[]) => run(args),
    async ok(...args: string[]): Promise<any> {
      const r = await run(args);
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
      expect(r.stdout.endsWith('\n') && r.stdout.indexOf('\n') === r.stdout.length - 1).toBe(true);
      return JSON.parse(r.stdout);
    },
    async fails(...args: string[]): Promise<{ code: number | null; line: string }> {
      const r = await run(args);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^bms: [^\n]+\n$/);
      return { code: r.code, line: r.stderr.trim() };
    },
  };
}
