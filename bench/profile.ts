import fs from 'node:fs';
import path from 'node:path';
import { table } from './report';

/**
 * Where a V8 CPU profile (node --cpu-prof) spent its samples while under load, as a share of
 * the busy time (idle excluded). Samples outside the load window (start-up, schema building,
 * warm-up) are left out: V8's timestamps and process.hrtime both read the monotonic clock.
 *
 * Three views: self time by package; the same with Node's own and native frames charged to the
 * nearest library that called them (what a package costs, socket writes and crypto included);
 * and self time by function.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Microseconds on the monotonic clock, comparable with the profile's timestamps. */
export const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

const RUNTIME = new Set(['node (core)', '(native)', '(program)', '(garbage collector)']);

/** The package a script belongs to: `graphql`, `@mikro-orm/core`, `service: family`, `node (core)`. */
export function packageOf(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = url.slice(modules + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (url.startsWith('node:')) return 'node (core)';
  const src = url.indexOf('/dist/src/');
  if (src >= 0)
    return `service: ${url
      .slice(src + '/dist/src/'.length)
      .split('/')[0]
      .replace(/\.js$/, '')}`;
  return path.basename(url);
}

export function summarizeProfile(file: string, window?: { from: number; to: number }, top = 15): string {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  const self = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (window && (at < window.from || at > window.to)) return;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });

  const packages = new Map<string, number>();
  const layers = new Map<string, number>();
  const functions = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  let busy = 0;
  for (const [id, micros] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    busy += micros;
    const pkg = packageOf(url, functionName);
    add(packages, pkg, micros);
    add(functions, `${functionName || '(anonymous)'}${url ? ` ${pkg}:${lineNumber + 1}` : ''}`, micros);
    let layer = pkg;
    for (let p = parent.get(id); RUNTIME.has(layer) && p !== undefined; p = parent.get(p)) {
      const frame = byId.get(p)!.callFrame;
      if (frame.url || !frame.functionName.startsWith('(')) {
        const candidate = packageOf(frame.url, frame.functionName);
        if (!RUNTIME.has(candidate)) layer = candidate;
      }
    }
    add(layers, layer, micros);
  }
  // Inclusive time: every function on a sample's stack is charged once for it.
  const inclusive = new Map<string, number>();
  for (const [id, micros] of self) {
    if (byId.get(id)!.callFrame.functionName === '(idle)') continue;
    const seen = new Set<string>();
    for (let p: number | undefined = id; p !== undefined; p = parent.get(p)) {
      const { functionName, url, lineNumber } = byId.get(p)!.callFrame;
      if (!url || !functionName) continue;
      const key = `${functionName} ${packageOf(url, functionName)}:${lineNumber + 1}`;
      if (!seen.has(key)) add(inclusive, key, micros);
      seen.add(key);
    }
  }
  const rows = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => [k, `${((v / busy) * 100).toFixed(1)}%`, `${(v / 1000).toFixed(0)} ms`]);
  return [
    `busy ${(busy / 1e6).toFixed(1)} s of samples under load`,
    table(['package (self time)', 'share', 'time'], rows(packages), 1),
    '',
    table(['package, runtime frames charged to their caller', 'share', 'time'], rows(layers), 1),
    '',
    table(['function (self time)', 'share', 'time'], rows(functions), 1),
    '',
    table(['function (inclusive time, within synchronous stacks)', 'share', 'time'], rows(inclusive), 1),
  ].join('\n');
}

/** The newest .cpuprofile in `dir`. */
export function latestProfile(dir: string): string | undefined {
  if (!fs.existsSync(dir)) return undefined;
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => path.join(dir, f))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  return files[0];
}
