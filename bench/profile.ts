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
  const layered = layerShares(byId, parent, self);
  // The same without the samples in a socket write's system call: on a machine where the
  // database shares the cores, the kernel runs the woken backend within the call, so those
  // samples are mostly time the service waited, not its CPU (/proc's figure is lower by about that).
  const writing = new Set(['writev', 'writeBuffer', 'writeLatin1String', 'writeUtf8String']);
  const busyCpu = [...self].reduce((n, [id, micros]) => {
    const name = byId.get(id)!.callFrame.functionName;
    return name === '(idle)' || writing.has(name) ? n : n + micros;
  }, 0);
  const cpuLayered = layerShares(byId, parent, self, writing);
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
    '',
    `layers: inclusive (a frame of the layer anywhere on the stack; layers nest) and charged (each sample to one layer); then the same without the ${((1 - busyCpu / busy) * 100).toFixed(1)}% of samples in socket writes' system calls`,
    table(
      ['layer', 'inclusive', 'charged', 'charged time', 'inclusive, writes out', 'charged, writes out'],
      LAYERS.map(([name]) => name)
        .concat(OTHER_LAYERS)
        .filter((name) => layered.inclusive.has(name) || layered.charged.has(name))
        .map((name) => {
          const share = (m: Map<string, number>, of: number) =>
            m.has(name) ? `${((m.get(name)! / of) * 100).toFixed(1)}%` : '-';
          return [
            name,
            share(layered.inclusive, busy),
            share(layered.charged, busy),
            `${((layered.charged.get(name) ?? 0) / 1000).toFixed(0)} ms`,
            share(cpuLayered.inclusive, busyCpu),
            share(cpuLayered.charged, busyCpu),
          ];
        }),
      1,
    ),
  ].join('\n');
}

/**
 * The layers of a request's path, each a test of a frame's script (the path under `dist/src/`,
 * or the package under `node_modules/`). The first that matches a frame names its layer.
 */
const LAYERS: [string, (script: string) => boolean][] = [
  [
    'event worker (outbox drain, deliveries)',
    (s) => /^service:events\/(worker|store|deliveries|digest|http-post|signing|push)/.test(s),
  ],
  ['answer serialisation (json-bytes, sendReply)', (s) => /^service:http\/(json-bytes|idempotency)/.test(s)],
  [
    'orm-bypass statements + pg (transaction, pipelines, bound statements)',
    (s) =>
      /^service:db\/(tenant-transaction|orm-bypass\/(connection-transaction|pipeline|bound-execute|statements))/.test(
        s,
      ) || /^(pg|pg-protocol|pg-pool|pg-types|pg-cloudflare|pgpass|postgres-[a-z]+)$/.test(s),
  ],
  [
    'flush subscribers (tenancy, history, outbox, deferred rows: ours)',
    (s) =>
      /^service:(db\/(tenancy|orm-bypass\/(deferred-writes|view-prototype))|history\/|events\/(outbox|domain-events)|entities\/)/.test(
        s,
      ),
  ],
  ['MikroORM (em.create, flush, unit of work, change sets) + knex', (s) => /^(@mikro-orm\/|knex$)/.test(s)],
  [
    'resolver + domain (family service, rules, class-validator)',
    (s) =>
      /^service:(family|domain|services|files|context|db\/orm-bypass\/detached)/.test(s) ||
      /^(class-validator|validator|dataloader|libphonenumber-js)$/.test(s),
  ],
  [
    'GraphQL (Apollo, graphql-js, graphql-jit, type-graphql, shield, armor)',
    (s) =>
      /^service:(graphql|schema|permissions)/.test(s) ||
      /^(graphql|graphql-jit|@apollo\/.*|type-graphql|graphql-shield|graphql-middleware|@escape\.tech\/.*|@graphql-tools\/.*|graphql-scalars|fast-json-stringify|generate-function)$/.test(
        s,
      ),
  ],
  ['authentication (tokens, caller)', (s) => /^service:auth\//.test(s) || /^(jsonwebtoken|jws|jwa)$/.test(s)],
  [
    'logging and metrics',
    (s) => /^service:(observability|logger)/.test(s) || /^(pino|prom-client|sonic-boom|on-finished)$/.test(s),
  ],
  [
    'Express + REST facade (routing, body, hardening)',
    (s) =>
      /^service:(rest|http|app|error-mapping|errors)/.test(s) ||
      /^(express|router|body-parser|raw-body|finalhandler|send|helmet|cors|express-rate-limit|find-my-way|qs|type-is|content-type|iconv-lite|accepts|negotiator|mime-types|@as-integrations\/.*)$/.test(
        s,
      ),
  ],
];
const OTHER_LAYERS = ['(garbage collector)', 'Node and V8 outside any layer', 'other packages'];

/** A frame's script as LAYERS tests it: `service:<path under dist/src>` or its package. */
function scriptOf(url: string, name: string): string {
  const src = url.indexOf('/dist/src/');
  if (src >= 0) return `service:${url.slice(src + '/dist/src/'.length).replace(/\.js$/, '')}`;
  return packageOf(url, name);
}

function layerOf(url: string, name: string): string | undefined {
  const script = scriptOf(url, name);
  return LAYERS.find(([, test]) => test(script))?.[0];
}

/**
 * Per layer: the share of samples with a frame of it anywhere on the (synchronous) stack
 * (`inclusive`: layers nest, so these overlap), and each sample charged to one layer
 * (`charged`: they sum to the whole): the innermost frame's that has one (Node's and native
 * frames go to their caller's layer), but the event worker's for all its stack, since what it
 * calls (knex, pg) is its cost.
 */
function layerShares(
  byId: Map<number, ProfileNode>,
  parent: Map<number, number>,
  self: Map<number, number>,
  leaving: ReadonlySet<string> = new Set(),
): { inclusive: Map<string, number>; charged: Map<string, number> } {
  const inclusive = new Map<string, number>();
  const charged = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  const worker = LAYERS[0][0];
  for (const [id, micros] of self) {
    const leaf = byId.get(id)!.callFrame;
    if (leaf.functionName === '(idle)' || leaving.has(leaf.functionName)) continue;
    if (leaf.functionName === '(garbage collector)') {
      add(inclusive, '(garbage collector)', micros);
      add(charged, '(garbage collector)', micros);
      continue;
    }
    const seen = new Set<string>();
    let innermost: string | undefined;
    let anyPackage = false;
    for (let p: number | undefined = id; p !== undefined; p = parent.get(p)) {
      const { functionName, url } = byId.get(p)!.callFrame;
      if (!url) continue;
      const layer = layerOf(url, functionName);
      if (!layer) {
        if (!url.startsWith('node:')) anyPackage = true;
        continue;
      }
      innermost ??= layer;
      seen.add(layer);
    }
    for (const layer of seen) add(inclusive, layer, micros);
    const to = seen.has(worker)
      ? worker
      : (innermost ?? (anyPackage ? 'other packages' : 'Node and V8 outside any layer'));
    add(charged, to, micros);
  }
  return { inclusive, charged };
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

/**
 * `node dist/bench/profile.js <dir> [rows]`: the summary of the newest profile in `dir` (a
 * scenario's folder under dist/bench-results/profiles/), within the load window the run saved.
 */
if (require.main === module) {
  const dir = process.argv[2];
  const file = dir && latestProfile(dir);
  if (!file) throw new Error('usage: node dist/bench/profile.js <folder of a profile> [rows]');
  const windowFile = path.join(dir, 'window.json');
  const window = fs.existsSync(windowFile)
    ? (JSON.parse(fs.readFileSync(windowFile, 'utf8')) as { from: number; to: number })
    : undefined;
  console.log(summarizeProfile(file, window, Number(process.argv[3] ?? 15)));
}
