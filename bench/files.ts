/**
 * Stored files through the service against the same store used directly, and the service's
 * memory during a large upload (docs/files.md). Starts the built service (`dist/src/main.js`) on
 * the embedded database with the local backend in a temporary DATA_DIR, on 127.0.0.1.
 *
 *   npm run bench:files            # 10 MB x 5 each way, then a 1 GB upload
 *   BENCH_FILES_BIG_MB=200 npm run bench:files
 *   BENCH_FILES_PROFILE=/tmp/prof npm run bench:files   # and a CPU profile of the service
 */
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';

const SMALL = 10 * 1024 * 1024;
const ROUNDS = Number(process.env.BENCH_FILES_ROUNDS ?? 5);
const BIG = Number(process.env.BENCH_FILES_BIG_MB ?? 1000) * 1000 * 1000;
const PORT = 40000 + Math.floor(Math.random() * 20000);

const rssOf = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
};
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** A multipart body of one `file` part of `size` bytes, generated as it is sent. */
function multipart(size: number, boundary: string): { body: Readable; length: number } {
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = randomBytes(1024 * 1024);
  async function* parts() {
    yield head;
    for (let sent = 0; sent < size; sent += chunk.length)
      yield sent + chunk.length <= size ? chunk : chunk.subarray(0, size - sent);
    yield tail;
  }
  return { body: Readable.from(parts()), length: head.length + size + tail.length };
}

/**
 * HTTP alone, for scale: a bare Node server in a process of its own that drops what it is sent
 * and answers downloads from memory, asked by the same client as the service.
 */
const BARE = `require('node:http').createServer((req, res) => {
  if (req.method === 'POST') { req.resume(); req.on('end', () => res.end()); return; }
  const body = Buffer.alloc(${SMALL}, 7);
  res.setHeader('content-length', body.length); res.end(body);
}).listen(Number(process.argv[1]), '127.0.0.1', () => console.log('listening'));`;

function upload(token: string, size: number, port = PORT): Promise<{ status: number; text: string }> {
  const boundary = `bench${Date.now()}`;
  const { body, length } = multipart(size, boundary);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/v1/files',
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': length,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      },
    );
    req.on('error', reject);
    body.pipe(req);
  });
}

function download(token: string, id: string, port = PORT): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(
        {
          host: '127.0.0.1',
          port,
          path: `/api/v1/files/${id}`,
          headers: { authorization: `Bearer ${token}` },
        },
        (res) => {
          let n = 0;
          res.on('data', (c: Buffer) => (n += c.length));
          res.on('end', () => resolve(n));
        },
      )
      .on('error', reject);
  });
}

/**
 * What the store must do to keep a file, done by hand: written under a temporary name, flushed
 * to disk, renamed into its folder, and the folder's new entry flushed (as the local backend does;
 * docs/files.md, "Measured").
 */
async function writeDirectly(store: string, target: string, bytes: Buffer): Promise<void> {
  const temporary = path.join(store, '.incoming', randomUUID());
  const handle = await fs.open(temporary, 'wx');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(temporary, target);
  const folder = await fs.open(path.dirname(target), 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}

/** The file read back whole, in the large reads the service makes too. */
async function readDirectly(target: string): Promise<number> {
  const handle = await fs.open(target, 'r');
  let n = 0;
  for await (const chunk of handle.createReadStream({ highWaterMark: 1024 * 1024 }))
    n += (chunk as Buffer).length;
  return n;
}

async function time(work: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bms-bench-files-'));
  // BENCH_FILES_PROFILE=<folder>: the service writes a CPU profile there when it stops.
  const profile = process.env.BENCH_FILES_PROFILE;
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  let bare: ReturnType<typeof spawn> | undefined;
  const service = spawn(process.execPath, [...flags, 'dist/src/main.js'], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(PORT),
      LOG_LEVEL: 'warn',
      NODE_ENV: '',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const token = await new Promise<string>((resolve, reject) => {
      let out = '';
      service.stdout!.on('data', (c) => {
        out += c;
        const found = /Bearer ([\w.-]+)/.exec(out);
        if (found) resolve(found[1]);
      });
      service.once('exit', () => reject(new Error(`the service exited: ${out}`)));
    });
    const store = path.join(dataDir, 'files');
    const direct = path.join(store, 'bench-direct', 'file');
    const payload = randomBytes(SMALL);

    const barePort = PORT + 1;
    bare = spawn(process.execPath, ['-e', BARE, String(barePort)], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve) => bare!.stdout!.once('data', resolve));
    let upBare = 0;
    let downBare = 0;

    // Warm-up, then rounds alternating service and direct, so both see the same disk state.
    await upload(token, SMALL);
    await fs.mkdir(path.dirname(direct), { recursive: true });
    let viaService = 0;
    let viaDisk = 0;
    let downService = 0;
    let downDisk = 0;
    for (let i = 0; i < ROUNDS; i++) {
      let id = '';
      viaService += await time(async () => {
        const res = await upload(token, SMALL);
        if (res.status !== 201) throw new Error(`upload: ${res.status} ${res.text}`);
        id = JSON.parse(res.text).file.blobId;
      });
      viaDisk += await time(() => writeDirectly(store, direct, payload));
      downService += await time(async () => {
        if ((await download(token, id)) !== SMALL) throw new Error('short download');
      });
      downDisk += await time(async () => {
        if ((await readDirectly(direct)) !== SMALL) throw new Error('short read');
      });
      upBare += await time(() => upload(token, SMALL, barePort));
      downBare += await time(async () => {
        if ((await download(token, id, barePort)) !== SMALL) throw new Error('short download');
      });
    }
    // The per-request part alone: an upload of one byte (authentication, the multipart parse,
    // the quota check, the row and its event).
    let tiny = 0;
    for (let i = 0; i < ROUNDS; i++)
      tiny += await time(async () => {
        const res = await upload(token, 1);
        if (res.status !== 201) throw new Error(`upload: ${res.status} ${res.text}`);
      });
    const rate = (ms: number) => ((SMALL * ROUNDS) / 1024 / 1024 / (ms / 1000)).toFixed(0);
    console.log(
      `10 MB x ${ROUNDS}, local backend, service on 127.0.0.1 against the same folder written directly:`,
    );
    console.log(
      `  upload:   service ${rate(viaService)} MB/s, direct ${rate(viaDisk)} MB/s, ratio ${((viaDisk / viaService) * 100).toFixed(0)}%`,
    );
    console.log(
      `  HTTP alone (a bare server that drops the body / answers from memory): upload ${rate(upBare)} MB/s, download ${rate(downBare)} MB/s`,
    );
    console.log(`  one-byte upload: ${(tiny / ROUNDS).toFixed(1)} ms each (the per-request part)`);
    console.log(
      `  download: service ${rate(downService)} MB/s, direct ${rate(downDisk)} MB/s, ratio ${((downDisk / downService) * 100).toFixed(0)}%`,
    );

    const before = rssOf(service.pid!);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(service.pid!))), 50);
    const took = await time(async () => {
      const res = await upload(token, BIG);
      if (res.status !== 201) throw new Error(`big upload: ${res.status} ${res.text}`);
    });
    clearInterval(sampler);
    console.log(
      `${mb(BIG)} MiB upload in ${(took / 1000).toFixed(1)} s: service RSS ${mb(before)} MiB before, peak ${mb(peak)} MiB (+${mb(peak - before)} MiB)`,
    );
  } finally {
    bare?.kill('SIGTERM');
    service.kill('SIGTERM');
    await new Promise((r) => service.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
