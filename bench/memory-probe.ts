/**
 * Preloaded into the service for the soak (`--require`, with `--expose-gc`): answers the bench's
 * IPC question with the process's memory as V8 sees it, optionally after a full collection. A
 * forced collection's heap-used at the start and the end of a soak tells a leak (what survives
 * grows) from the heap's sizing (the collector lets the heap and the young generation grow while
 * what survives stays level), which RSS alone cannot.
 */
import v8 from 'node:v8';

export interface MemoryProbe {
  memoryProbe: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** Committed size of each V8 heap space (new_space is the young generation's semi-spaces). */
  spaces: Record<string, { size: number; used: number }>;
}

interface Question {
  memoryProbe: number;
  gc?: boolean;
}

const gc = (globalThis as { gc?: () => void }).gc;

process.on('message', (message: Question) => {
  if (typeof message?.memoryProbe !== 'number') return;
  if (message.gc && gc) gc();
  const usage = process.memoryUsage();
  const spaces: MemoryProbe['spaces'] = {};
  for (const s of v8.getHeapSpaceStatistics())
    spaces[s.space_name] = { size: s.space_size, used: s.space_used_size };
  const answer: MemoryProbe = {
    memoryProbe: message.memoryProbe,
    rss: usage.rss,
    heapUsed: usage.heapUsed,
    heapTotal: usage.heapTotal,
    external: usage.external,
    arrayBuffers: usage.arrayBuffers,
    spaces,
  };
  process.send?.(answer);
});
// The listener must not keep a process alive that would otherwise end.
process.channel?.unref();
