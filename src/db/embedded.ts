import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { StartStopped } from '../stop-signals';

/**
 * The embedded database: one PGlite host process per data directory, guarded by a lock file
 * that records its pid and port. A second process (the CLI next to a running server) finds the
 * lock and connects to the running host instead of opening the directory twice, which would
 * corrupt it.
 */
export interface EmbeddedDatabase {
  url: string;
  control?: Control;
  /** True when this process started the host and must stop it. */
  owned: boolean;
  stop(): Promise<void>;
}

/** The host's control port (pglite-host.js): what the wire protocol cannot carry, a backup. */
export interface Control {
  port: number;
  token: string;
}

interface LockInfo {
  pid: number;
  port: number;
  control?: Control;
}

const lockFile = (dataDir: string) => path.join(dataDir, 'embedded-db.lock');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(file: string): LockInfo | undefined {
  try {
    const info = JSON.parse(fs.readFileSync(file, 'utf8')) as LockInfo;
    return Number.isInteger(info.pid) && Number.isInteger(info.port) ? info : undefined;
  } catch {
    return undefined;
  }
}

const urlFor = (port: number) => `postgresql://postgres@127.0.0.1:${port}/postgres`;

/**
 * Starts a PGlite host for `dataDir` ("memory://" for a throw-away database) and waits for it.
 * `signal` aborted meanwhile stops the host (which finishes opening an existing database first:
 * see pglite-host.js) and rejects with StartStopped once it has exited.
 */
export function startHost(
  dataDir: string,
  port = 0,
  signal?: AbortSignal,
): Promise<{ child: ChildProcess; port: number; control: Control }> {
  const child = fork(path.join(__dirname, 'pglite-host.js'), [dataDir, String(port)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const abort = () => child.kill('SIGTERM');
  signal?.addEventListener('abort', abort, { once: true });
  return new Promise<{ child: ChildProcess; port: number; control: Control }>((resolve, reject) => {
    child.once('message', (msg: { ready: boolean; port?: number; control?: Control; error?: string }) => {
      if (msg.ready && msg.port && msg.control) resolve({ child, port: msg.port, control: msg.control });
      else reject(new Error(`embedded database failed to start: ${msg.error ?? 'unknown error'}`));
    });
    child.once('exit', (code) =>
      reject(signal?.aborted ? new StartStopped() : new Error(`embedded database exited with code ${code}`)),
    );
  }).finally(() => signal?.removeEventListener('abort', abort));
}

export function stopHost(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export async function openEmbedded(dataDir: string, signal?: AbortSignal): Promise<EmbeddedDatabase> {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = lockFile(dataDir);
  for (let attempt = 0; attempt < 50; attempt++) {
    const held = readLock(file);
    if (held && alive(held.pid)) {
      return { url: urlFor(held.port), control: held.control, owned: false, stop: async () => undefined };
    }
    let fd: number;
    try {
      if (held || fs.existsSync(file)) {
        // A lock left by a process that died, or one being written right now: give a writer a
        // moment, then treat a still-unreadable or dead lock as stale.
        await new Promise((r) => setTimeout(r, 100));
        const again = readLock(file);
        if (again && alive(again.pid)) continue;
        fs.rmSync(file, { force: true });
      }
      fd = fs.openSync(file, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw err;
    }
    try {
      const { child, port, control } = await startHost(path.join(dataDir, 'pgdata'), 0, signal);
      fs.writeSync(fd, JSON.stringify({ pid: child.pid, port, control }));
      fs.closeSync(fd);
      return {
        url: urlFor(port),
        control,
        owned: true,
        stop: async () => {
          await stopHost(child);
          if (readLock(file)?.pid === child.pid) fs.rmSync(file, { force: true });
        },
      };
    } catch (err) {
      fs.closeSync(fd);
      fs.rmSync(file, { force: true });
      throw err;
    }
  }
  throw new Error(`could not lock the embedded database in ${dataDir}`);
}

/** The host running for `dataDir` right now (a service, or a CLI command), if any. */
export function runningHost(dataDir: string): LockInfo | undefined {
  const held = readLock(lockFile(dataDir));
  return held && alive(held.pid) ? held : undefined;
}
