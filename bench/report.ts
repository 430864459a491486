import type { LoadResult } from './drive';
import type { ScenarioKey, Target } from './scenarios';

/** Plain-text tables for the terminal and the README; every figure the run produced, nothing derived twice. */

export interface Row {
  scenario: ScenarioKey;
  title: string;
  target: Target;
  result: LoadResult;
  /**
   * CPU milliseconds the server process spent per request during the load: steadier than
   * throughput on a machine whose two cores the load generator and PostgreSQL share.
   */
  cpuMsPerRequest?: number;
  /** CPU milliseconds PostgreSQL's backends of the bench database spent per request during the load. */
  pgCpuMsPerRequest?: number;
  /** Whether this target answered the same JSON as the REST facade (checked before the load). */
  sameJson?: boolean;
  /** Requests per second in each round, in round order: ratios are taken round by round. */
  roundRps: number[];
}

/**
 * The median over the rounds of one target's throughput divided by another's in the same round,
 * with the range: a round that the machine's other load slowed falls on both sides of its ratio,
 * where a ratio of medians would compare figures taken at different times.
 */
export function roundRatio(ours: Row, theirs: Row): { median: number; min: number; max: number } {
  const each = ours.roundRps
    .map((rps, i) => rps / theirs.roundRps[i])
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const mid = Math.floor(each.length / 2);
  const median = each.length % 2 ? each[mid] : (each[mid - 1] + each[mid]) / 2;
  return { median, min: each[0], max: each[each.length - 1] };
}

const ratioText = (r: { median: number; min: number; max: number }) =>
  `${fmt(r.median * 100, 0)}% (rounds ${fmt(r.min * 100, 0)}%-${fmt(r.max * 100, 0)}%)`;

export interface StatementCount {
  scenario: ScenarioKey;
  total: number;
  /** Statements sent together (BEGIN, the settings and the first statement) go in one. */
  roundTrips: number;
  /** BEGIN, set_config, the user with its roles' permissions, COMMIT: the same for every request. */
  authAndTransaction: number;
  /** The operation's own statements. */
  beyondAuth: number;
  /** A label per round trip: its statements' labels joined with +. */
  statements: string[];
}

export interface LatencyPoint {
  label: string;
  tableRows: number;
  tenants: number;
  rest: LoadResult;
  /** Execution time reported by EXPLAIN ANALYZE for the page's statement (the page with its count), ms. */
  explainMs: number;
}

export interface Ratio {
  name: string;
  value: string;
  target: string;
  met: boolean | null;
}

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** A Markdown table; the first `left` columns are text, the others figures (right-aligned). */
export function table(headers: string[], rows: string[][], left = 2): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i < left ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i < left ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(headers), rule, ...rows.map(line)].join('\n');
}

export function resultsTable(rows: Row[]): string {
  return table(
    [
      'scenario',
      'target',
      'req/s',
      'p50 ms',
      'p99 ms',
      'server CPU ms/req',
      'PostgreSQL CPU ms/req',
      'requests',
      'failed',
      'same rows',
    ],
    rows.map((r) => [
      r.title,
      r.target,
      fmt(r.result.rps, 0),
      fmt(r.result.p50, 1),
      fmt(r.result.p99, 1),
      r.cpuMsPerRequest === undefined ? '-' : fmt(r.cpuMsPerRequest, 2),
      r.pgCpuMsPerRequest === undefined ? '-' : fmt(r.pgCpuMsPerRequest, 2),
      String(r.result.requests),
      String(r.result.failures),
      r.sameJson === undefined ? '-' : r.sameJson ? 'yes' : 'NO',
    ]),
  );
}

export function statementsTable(counts: StatementCount[]): string {
  return table(
    [
      'scenario',
      'round trips (statements sent together joined with +)',
      'round trips',
      'statements',
      'auth + tx',
      'the operation',
    ],
    counts.map((c) => [
      c.scenario,
      c.statements.join(', '),
      String(c.roundTrips),
      String(c.total),
      String(c.authAndTransaction),
      String(c.beyondAuth),
    ]),
  );
}

export function latencyTable(points: LatencyPoint[]): string {
  return table(
    [
      'dynamic-search, page of 20',
      'feature rows / tenants',
      'p50 ms',
      'p99 ms',
      'req/s',
      'EXPLAIN ms (page + count)',
    ],
    points.map((p) => [
      p.label,
      `${p.tableRows} / ${p.tenants}`,
      fmt(p.rest.p50),
      fmt(p.rest.p99),
      fmt(p.rest.rps, 0),
      fmt(p.explainMs, 2),
    ]),
    2,
  );
}

export function ratiosTable(ratios: Ratio[]): string {
  return table(
    ['ratio', 'measured', 'target', 'met'],
    ratios.map((r) => [r.name, r.value, r.target, r.met === null ? '-' : r.met ? 'yes' : 'NO']),
    4,
  );
}

const rowOf = (rows: Row[], scenario: ScenarioKey, target: Target) =>
  rows.find((r) => r.scenario === scenario && r.target === target);

/**
 * The service against the peer (PostGraphile 5) in the same run: throughput of the REST facade
 * (its full shape) and of GraphQL with the peer's columns, and PostgreSQL's CPU per request.
 */
/** What the service's throughput should reach against the peer's, per scenario (bench/README.md, "How ratios are computed"). */
const PEER_TARGET: Partial<Record<ScenarioKey, number>> = {
  find: 1,
  search20: 1,
  search200: 1,
  create: 1,
  update: 1,
  delete: 1,
  bulkdelete: 1,
  mixed: 1.1,
};
const WRITE_KEYS: ScenarioKey[] = ['create', 'update', 'delete', 'bulkdelete', 'mixed'];

export function peerRatios(rows: Row[]): Ratio[] {
  const out: Ratio[] = [];
  for (const scenario of Object.keys(PEER_TARGET) as ScenarioKey[]) {
    const peer = rowOf(rows, scenario, 'postgraphile');
    if (!peer) continue;
    const wanted = PEER_TARGET[scenario]!;
    const write = WRITE_KEYS.includes(scenario);
    for (const target of ['rest', 'graphql', 'graphql-columns'] as Target[]) {
      // Reads compare GraphQL with the peer's columns; writes have no such variant.
      if (target === 'graphql' && !write) continue;
      const ours = rowOf(rows, scenario, target);
      if (!ours) continue;
      const share = roundRatio(ours, peer);
      out.push({
        name: `${scenario}, ${target} throughput / PostGraphile's`,
        value: `${ratioText(share)}; medians ${fmt(ours.result.rps, 0)} / ${fmt(peer.result.rps, 0)} req/s`,
        target: `>= ${fmt(wanted * 100, 0)}%`,
        met: share.median >= wanted,
      });
      if (ours.cpuMsPerRequest !== undefined && peer.cpuMsPerRequest !== undefined)
        out.push({
          name: `${scenario}, ${target} server CPU per request vs PostGraphile's`,
          value: `${fmt(ours.cpuMsPerRequest, 2)} vs ${fmt(peer.cpuMsPerRequest, 2)} ms`,
          target: 'stated',
          met: null,
        });
      if (ours.pgCpuMsPerRequest !== undefined && peer.pgCpuMsPerRequest !== undefined)
        out.push({
          name: `${scenario}, ${target} PostgreSQL CPU per request vs PostGraphile's`,
          value: `${fmt(ours.pgCpuMsPerRequest, 2)} vs ${fmt(peer.pgCpuMsPerRequest, 2)} ms`,
          target: write ? "<= 1.5 x the peer's" : "<= the peer's",
          met: ours.pgCpuMsPerRequest <= peer.pgCpuMsPerRequest * (write ? 1.5 : 1),
        });
    }
  }
  return out;
}

/** The targets of issue 7, and the cost of row-level security it asks to state. */
export function ratios(rows: Row[], counts: StatementCount[], latency: LatencyPoint[]): Ratio[] {
  const out: Ratio[] = peerRatios(rows);
  const restFind = rowOf(rows, 'find', 'rest');
  const baseFind = rowOf(rows, 'find', 'baseline-rls');
  if (restFind && baseFind) {
    const share = roundRatio(restFind, baseFind);
    out.push({
      name: 'REST find/{id} throughput / baseline (same SQL, RLS transaction)',
      value: ratioText(share),
      target: '>= 60%',
      met: share.median >= 0.6,
    });
  }
  const restCpu = rows.find((r) => r.scenario === 'find' && r.target === 'rest')?.cpuMsPerRequest;
  const baseCpu = rows.find((r) => r.scenario === 'find' && r.target === 'baseline-rls')?.cpuMsPerRequest;
  if (restCpu && baseCpu)
    out.push({
      name: "REST find/{id}: baseline CPU per request / the service's (the same share, less noise)",
      value: `${fmt((baseCpu / restCpu) * 100, 0)}% (${fmt(baseCpu, 2)} / ${fmt(restCpu, 2)} ms)`,
      target: 'stated',
      met: null,
    });
  const restFindRow = rowOf(rows, 'find', 'rest');
  for (const target of ['rest-issuer', 'rest-apikey'] as Target[]) {
    const other = rowOf(rows, 'find', target);
    if (!restFindRow || !other) continue;
    const share = roundRatio(other, restFindRow);
    out.push({
      name: `REST find/{id} with ${target === 'rest-issuer' ? "an issuer's RS256 token" : 'an API key'} / with the HS256 token`,
      value: `${ratioText(share)}; server CPU ms/req ${fmt(other.cpuMsPerRequest ?? NaN, 2)} / ${fmt(restFindRow.cpuMsPerRequest ?? NaN, 2)}`,
      target: '>= 90%',
      met: share.median >= 0.9,
    });
  }
  for (const scenario of [
    'find',
    'search20',
    'search200',
    'create',
    'delete',
    'bulkdelete',
  ] as ScenarioKey[]) {
    const rest = rowOf(rows, scenario, 'rest');
    const gql = rowOf(rows, scenario, 'graphql');
    if (!rest || !gql) continue;
    const share = roundRatio(rest, gql);
    out.push({
      name: `REST vs GraphQL, ${scenario}: REST throughput / GraphQL's`,
      value: ratioText(share),
      target: '>= 90%',
      met: share.median >= 0.9,
    });
  }
  const page20 = counts.find((c) => c.scenario === 'search20');
  const page200 = counts.find((c) => c.scenario === 'search200');
  if (page20 && page200) {
    out.push({
      name: 'SQL statements of the operation (beyond auth + tx), page of 20 / of 200',
      value: `${page20.beyondAuth} / ${page200.beyondAuth}`,
      target: '<= 3, equal',
      met: page20.beyondAuth <= 3 && page200.beyondAuth <= 3 && page20.beyondAuth === page200.beyondAuth,
    });
  }
  const small = latency[0];
  const big = latency[latency.length - 1];
  if (small && big && big !== small) {
    const ratio = big.rest.p50 / small.rest.p50;
    const million = big.tableRows >= 1_000_000;
    out.push({
      name: `dynamic-search p50 on ${big.tableRows} rows / ${big.tenants} tenants vs ${small.tableRows} rows`,
      value: `${fmt(ratio, 2)}x (EXPLAIN ${fmt(big.explainMs, 2)} vs ${fmt(small.explainMs, 2)} ms)`,
      target: million ? '<= 2x' : '<= 2x (1M rows: BENCH_LARGE=1)',
      met: million ? ratio <= 2 : null,
    });
  }
  for (const scenario of ['find', 'search20', 'create'] as ScenarioKey[]) {
    const rls = rowOf(rows, scenario, 'baseline-rls');
    const plain = rowOf(rows, scenario, 'baseline-plain');
    if (!rls || !plain) continue;
    out.push({
      name: `cost of RLS transaction, ${scenario} (baseline plain -> rls): throughput / p50`,
      value: `${ratioText(roundRatio(rls, plain))} / +${fmt(rls.result.p50 - plain.result.p50, 2)} ms`,
      target: 'stated',
      met: null,
    });
  }
  return out;
}

export const mb = (bytes: number | undefined) =>
  bytes === undefined ? '-' : `${fmt(bytes / 1048576, 1)} MB`;
