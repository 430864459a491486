import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { PDF_THREAD, type DrawAnswer, type DrawRequest, type InvoicePdfLayout } from './invoice-pdf-drawing';

/**
 * The thread that draws invoice PDFs, so that pdfkit's work never holds up this process's
 * requests: drawn in the event loop, each PDF made after a create delayed the requests queued
 * behind it, the holder of a tenant's invoice-number lock among them. One thread per process: it
 * draws one PDF at a time, which is a fraction of what the PDF queue does for each
 * (invoice-pdf-queue.ts), and several processes each have theirs. The thread is started on the
 * first PDF and ends after a while without one; it never keeps the process alive while it has
 * nothing to draw.
 */

/** How long the thread waits for more work before it ends (and pdfkit's memory with it). */
const IDLE_MS = 30_000;
const SOURCE = path.extname(__filename);
const THREAD_FILE = path.join(__dirname, `invoice-pdf-drawing${SOURCE}`);

/**
 * Run from the TypeScript sources (the tests compile them with swc as they load), the thread
 * compiles its module the same way; the build runs the compiled file as it is.
 */
const fromSources = (file: string, compiler: string) => `
  const fs = require('node:fs');
  const swc = require(${JSON.stringify(compiler)});
  require.extensions['.ts'] = (module, filename) => {
    const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
      filename, swcrc: false, jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'commonjs' },
    });
    module._compile(code, filename);
  };
  require(${JSON.stringify(file)});
`;

interface Pending {
  resolve: (pdf: Buffer) => void;
  reject: (err: Error) => void;
}

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
  idle?: NodeJS.Timeout;
}

let thread: Thread | null = null;
let requests = 0;

function startThread(): Thread {
  const worker =
    SOURCE === '.ts'
      ? new Worker(fromSources(THREAD_FILE, require.resolve('@swc/core')), {
          eval: true,
          workerData: PDF_THREAD,
        })
      : new Worker(THREAD_FILE, { workerData: PDF_THREAD });
  const started: Thread = { worker, pending: new Map() };
  worker.unref();
  const fail = (err: Error) => {
    if (thread === started) thread = null;
    clearTimeout(started.idle);
    for (const { reject } of started.pending.values()) reject(err);
    started.pending.clear();
  };
  worker.on('message', (answer: DrawAnswer) => {
    const waiting = started.pending.get(answer.id);
    if (!waiting) return;
    started.pending.delete(answer.id);
    if ('error' in answer) waiting.reject(new Error(`the invoice PDF could not be drawn: ${answer.error}`));
    else waiting.resolve(Buffer.from(answer.pdf.buffer, answer.pdf.byteOffset, answer.pdf.byteLength));
    if (started.pending.size === 0) {
      worker.unref();
      started.idle = setTimeout(() => {
        if (thread === started) thread = null;
        void worker.terminate();
      }, IDLE_MS).unref();
    }
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the invoice PDF thread ended (exit code ${code})`)));
  return started;
}

/** The invoice's PDF drawn in the thread: the bytes `drawInvoicePdf` makes of `layout` and `logo`. */
export function drawInThread(layout: InvoicePdfLayout, logo: Buffer | null): Promise<Buffer> {
  const current = (thread ??= startThread());
  clearTimeout(current.idle);
  if (current.pending.size === 0) current.worker.ref();
  const id = ++requests;
  return new Promise<Buffer>((resolve, reject) => {
    current.pending.set(id, { resolve, reject });
    current.worker.postMessage({ id, layout, logo } satisfies DrawRequest);
  });
}
