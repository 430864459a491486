/**
 * The transfer scenario of `npm run bench` (BENCH_TRANSFER_SCENARIO=1): what each step of a stock
 * transfer costs against a plain update of the same record. The service as deployed (the built
 * `dist`, its own process, a fresh database) with a source site holding stock of TRANSFER_PRODUCTS
 * products (20) and a destination site; then, TRANSFER_ROUNDS times (3), TRANSFER_COUNT transfers
 * (1,000) go through every step, each step sent for all of them on TRANSFER_CONNECTIONS
 * connections (10) at once:
 *
 * - create: GraphQL `createStockTransfer` with both sites and one product line (a DRAFT);
 * - approve: PATCH status APPROVED, which reserves at the source;
 * - ship: PATCH status SHIPPED, which takes the stock out of the source's batches into transit;
 * - deliver: PATCH status DELIVERED, which brings it into the destination as batches.
 *
 * After each step the same transfers get a plain update (PATCH of `note` alone: the same route,
 * the same record in the state the step left, no stock moved), so each step has its own
 * comparison on the same rows under the same load. Transfer i moves product i mod
 * TRANSFER_PRODUCTS, so concurrent steps meet on an inventory row now and then, as a busy site's
 * would. With TRANSFER_PROFILE=1 the service runs under `node --cpu-prof` and the summary of its
 * profile during the steps follows the figures. Reports req/s per step and round, the medians, the
 * ratio to the plain update, and the load average at each round.
 */
import fs from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { monotonicMicros, latestProfile, summarizeProfile } from './profile';
import { scenarioTenant } from './scenario-tenant';
import { startService } from './processes';
import { startCapture } from './sql-capture';

const COUNT = Number(process.env.TRANSFER_COUNT ?? 1_000);
const ROUNDS = Number(process.env.TRANSFER_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.TRANSFER_CONNECTIONS ?? 10);
const PRODUCTS = Number(process.env.TRANSFER_PRODUCTS ?? 20);
const PROFILE = process.env.TRANSFER_PROFILE === '1';

const STEPS = ['create', 'approve', 'ship', 'deliver'] as const;
type Step = (typeof STEPS)[number];

export interface TransferResult {
  /** Statements and round trips of each request of one transfer, captured at the driver. */
  sql: { request: string; statements: number; trips: number; text: string[] }[];
  rounds: { loadAverage: number[]; rps: Record<Step | `plain after ${Step}`, number> }[];
  median: Record<Step, { rps: number; plainRps: number; ratio: number }>;
  profile?: string;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const load = () => loadavg().map((l) => Math.round(l * 10) / 10);

export async function transferScenario(log: (line: string) => void = console.log): Promise<TransferResult> {
  const { db, secret, token, close } = await scenarioTenant('Transfers');
  const stops: (() => Promise<unknown>)[] = [];
  const profileDir = PROFILE ? fs.mkdtempSync(path.join(tmpdir(), 'bms-transfer-prof-')) : undefined;
  try {
    const service = await startService({
      databaseUrl: db.url,
      jwtSecret: secret,
      poolSize: 4,
      logLevel: 'warn',
      ...(profileDir ? { profileDir } : {}),
    });
    stops.push(() => service.stop());
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const send = async (method: string, url: string, body: unknown): Promise<any> => {
      const res = await fetch(`${service.base}${url}`, { method, headers, body: JSON.stringify(body) });
      const json = (await res.json()) as any;
      if (res.status >= 300 || json?.errors)
        throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const gql = async (query: string, variables: Record<string, unknown>) =>
      (await send('POST', '/graphql', { query, variables })).data;

    const site = async (name: string) =>
      (
        await gql(`mutation($input: StockSiteInput!) { createStockSite(input: $input) { id } }`, {
          input: { name },
        })
      ).createStockSite.id as string;
    const from = await site('Warehouse');
    const to = await site('Shop');
    const products: string[] = [];
    for (let p = 0; p < PRODUCTS; p++)
      products.push(
        (
          await gql(`mutation($input: ProductInput!) { createProduct(input: $input) { id } }`, {
            input: { name: `Item ${p}` },
          })
        ).createProduct.id,
      );
    // Enough for every round's transfers, one unit each.
    await send('POST', '/api/v1/inventory', {
      stockSiteId: from,
      products: products.map((productId) => ({ productId, quantity: COUNT * ROUNDS + 1000, price: 1 })),
    });

    /** Sends `request(i)` for i in [0, n) on CONNECTIONS connections at once; answers req/s. */
    const blast = async (n: number, request: (i: number) => Promise<unknown>) => {
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          for (let i = next++; i < n; i = next++) await request(i);
        }),
      );
      return n / ((performance.now() - started) / 1000);
    };

    const patch = (id: string, body: object) => send('PATCH', `/api/v1/stock-transfers/${id}`, body);
    log(
      `Transfers: ${ROUNDS} rounds of ${COUNT} transfers through create, approve, ship, deliver on ${CONNECTIONS} connections, ${PRODUCTS} products; after each step a plain update (note) of the same transfers`,
    );
    // Warm-up: JIT and plan caches, not counted.
    const warm: string[] = [];
    await blast(100, async (i) => {
      warm[i] = (
        await gql(`mutation($input: StockTransferInput!) { createStockTransfer(input: $input) { id } }`, {
          input: {
            stockSiteId: from,
            destinationStockSiteId: to,
            products: [{ productId: products[i % PRODUCTS], quantity: 1 }],
          },
        })
      ).createStockTransfer.id;
    });
    for (const status of ['APPROVED', 'SHIPPED', 'DELIVERED'])
      await blast(100, (i) => patch(warm[i], { status }));
    await blast(100, (i) => patch(warm[i], { note: `warm ${i}` }));

    // The statements of one transfer's requests, from an in-process copy of the service (the
    // measured process is untouched), one request at a time.
    const capture = await startCapture(db.url, { secret });
    const sql: TransferResult['sql'] = [];
    try {
      const captured = async (request: string, method: 'POST' | 'PATCH', url: string, body: object) => {
        const {
          status,
          body: answer,
          statements,
        } = await capture.run({ method, path: url, body: JSON.stringify(body) }, token);
        if (status >= 300) throw new Error(`${request}: ${status} ${JSON.stringify(answer)}`);
        sql.push({
          request,
          statements: statements.length,
          trips: new Set(statements.map((x) => x.trip)).size,
          text: statements.map(
            (x) => `[trip ${x.trip - statements[0].trip + 1}] ${x.sql.replace(/\s+/g, ' ').slice(0, 140)}`,
          ),
        });
        return answer as any;
      };
      const created = await captured('create', 'POST', '/graphql', {
        query: `mutation($input: StockTransferInput!) { createStockTransfer(input: $input) { id } }`,
        variables: {
          input: {
            stockSiteId: from,
            destinationStockSiteId: to,
            products: [{ productId: products[0], quantity: 1 }],
          },
        },
      });
      const id = created.data.createStockTransfer.id as string;
      const url = `/api/v1/stock-transfers/${id}`;
      await captured('plain update (DRAFT)', 'PATCH', url, { note: 'a' });
      for (const [step, status] of [
        ['approve', 'APPROVED'],
        ['ship', 'SHIPPED'],
        ['deliver', 'DELIVERED'],
      ]) {
        await captured(step, 'PATCH', url, { status });
        await captured(`plain update (${status})`, 'PATCH', url, { note: step });
      }
    } finally {
      await capture.close();
    }
    log('  SQL per request, captured at the driver (statements / round trips):');
    for (const x of sql) log(`    ${x.request.padEnd(26)} ${String(x.statements).padStart(3)} / ${x.trips}`);
    if (process.env.TRANSFER_SQL === '1')
      for (const x of sql) log(`  ${x.request}:\n${x.text.map((t, k) => `    ${k + 1}. ${t}`).join('\n')}`);

    const window = { from: monotonicMicros(), to: 0 };
    const rounds: TransferResult['rounds'] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const loadAverage = load();
      const ids: string[] = [];
      const rps = {} as TransferResult['rounds'][number]['rps'];
      const plain = async (step: Step) => {
        rps[`plain after ${step}`] = await blast(COUNT, (i) =>
          patch(ids[i], { note: `round ${r} after ${step} ${i}` }),
        );
      };
      rps.create = await blast(COUNT, async (i) => {
        ids[i] = (
          await gql(`mutation($input: StockTransferInput!) { createStockTransfer(input: $input) { id } }`, {
            input: {
              stockSiteId: from,
              destinationStockSiteId: to,
              products: [{ productId: products[i % PRODUCTS], quantity: 1 }],
            },
          })
        ).createStockTransfer.id;
      });
      await plain('create');
      rps.approve = await blast(COUNT, (i) => patch(ids[i], { status: 'APPROVED' }));
      await plain('approve');
      rps.ship = await blast(COUNT, (i) => patch(ids[i], { status: 'SHIPPED' }));
      await plain('ship');
      rps.deliver = await blast(COUNT, (i) => patch(ids[i], { status: 'DELIVERED' }));
      await plain('deliver');
      rounds.push({ loadAverage, rps });
      log(
        `  round ${r + 1} (load average ${loadAverage.join(' / ')}): ${Object.entries(rps)
          .map(([k, v]) => `${k} ${v.toFixed(0)}`)
          .join(', ')} req/s`,
      );
    }
    window.to = monotonicMicros();

    const result: TransferResult = { sql, rounds, median: {} as TransferResult['median'] };
    log('  medians over the rounds:');
    for (const step of STEPS) {
      const rps = median(rounds.map((x) => x.rps[step]));
      const plainRps = median(rounds.map((x) => x.rps[`plain after ${step}`]));
      // The ratio of each round, then their median: the round's load weighs on both alike.
      const ratio = median(rounds.map((x) => x.rps[step] / x.rps[`plain after ${step}`]));
      result.median[step] = { rps, plainRps, ratio };
      log(
        `    ${step.padEnd(8)} ${rps.toFixed(0).padStart(6)} req/s; plain update of the same transfers ${plainRps.toFixed(0).padStart(6)} req/s; step / plain ${ratio.toFixed(2)}`,
      );
    }
    log(
      `  load average at the end: ${load().join(' / ')}${db.embedded ? ' (embedded database: not comparable)' : ''}`,
    );
    if (profileDir) {
      await service.stop();
      stops.length = 0;
      const file = latestProfile(profileDir);
      if (file) {
        result.profile = summarizeProfile(file, window, 25);
        log(`\nWhere the service's CPU went during the rounds (node --cpu-prof):\n${result.profile}`);
      }
    }
    return result;
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await close();
    if (profileDir) fs.rmSync(profileDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  transferScenario().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
