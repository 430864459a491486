/**
 * The fan-out's subscribers, in a process of their own (so their parsing does not take the
 * service's or the load's event loop): for each group of BENCH_GROUPS (JSON: a token and a number
 * of sockets each), that many WebSockets to BENCH_WS_URL, each speaking graphql-transport-ws with
 * the group's token and subscribing once to BENCH_QUERY. Per receipt it reads the record's id and
 * the event's occurredAt (without parsing the whole message: every socket gets every event) and
 * keeps them with the arrival time. Tells "ready" once every socket is subscribed; then, over IPC,
 * the receipts so far (`count`), and the figures against the acknowledged creates (`stats`).
 */
import WebSocket from 'ws';

const URL = process.env.BENCH_WS_URL ?? '';
const QUERY = process.env.BENCH_QUERY ?? '';
const GROUPS = JSON.parse(process.env.BENCH_GROUPS ?? '[]') as {
  token: string;
  tenantId: string;
  sockets: number;
}[];

const RESOURCE = /"resource":\{"type":"[^"]*","id":"([^"]+)"\}/;
const OCCURRED = /"occurredAt":"([^"]+)"/;
const TENANT = /"tenantId":"([^"]+)"/;

/** The records seen, by id: an index each, so receipts keep numbers rather than strings. */
const recordIndex = new Map<string, number>();
const recordIds: string[] = [];
const occurredAt: number[] = [];
const tenantOf: string[] = [];

interface Receiver {
  group: number;
  /** Per receipt: the record's index, and when it arrived (ms since the epoch). */
  records: number[];
  arrivals: number[];
}
const receivers: Receiver[] = [];
let receipts = 0;

function open(group: number, token: string): Promise<WebSocket> {
  const receiver: Receiver = { group, records: [], arrivals: [] };
  receivers.push(receiver);
  const ws = new WebSocket(URL, 'graphql-transport-ws');
  return new Promise((resolve, reject) => {
    ws.on('open', () =>
      ws.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${token}` } })),
    );
    ws.on('error', reject);
    ws.on('close', (code) => reject(new Error(`a socket closed with ${code}`)));
    ws.on('message', (data: Buffer) => {
      const now = Date.now();
      const text = data.toString('utf8');
      if (text.startsWith('{"type":"connection_ack"')) {
        ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: QUERY } }));
        // The server holds the subscription once it has run the operation; a moment later at most.
        setTimeout(() => resolve(ws), 200);
        return;
      }
      const resource = RESOURCE.exec(text);
      if (!resource) return;
      let index = recordIndex.get(resource[1]);
      if (index === undefined) {
        index = recordIds.length;
        recordIndex.set(resource[1], index);
        recordIds.push(resource[1]);
        occurredAt.push(Date.parse(OCCURRED.exec(text)?.[1] ?? ''));
        tenantOf.push(TENANT.exec(text)?.[1] ?? '');
      }
      receiver.records.push(index);
      receiver.arrivals.push(now);
      receipts++;
    });
  });
}

const percentile = (sorted: Float64Array, p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * Per group, against the acknowledged creates (`acks`: record id to the time its create was
 * answered; every socket of group 0 must get each once, other groups none): receipts, the
 * sockets' fewest and most distinct records, duplicates, records of another tenant than the
 * group's (`foreign`), records of its own that no answer acknowledged (`unacknowledged`: the
 * creates the load's end cut off, committed but not answered to it), the lag from the
 * acknowledgement to the receipt (over every receipt, during the load and in all, and each
 * socket's p99) and from the event's occurredAt.
 */
function stats(acks: Record<string, number>, loadEnded: number) {
  const created = Object.keys(acks).length;
  const ackOf = recordIds.map((id) => acks[id]);
  return GROUPS.map(({ tenantId }, group) => {
    const mine = receivers.filter((r) => r.group === group);
    let total = 0;
    let duplicates = 0;
    let foreign = 0;
    let unacknowledged = 0;
    let fewest = Infinity;
    let most = 0;
    let missing = 0;
    const all: number[] = [];
    const during: number[] = [];
    const fromOccurred: number[] = [];
    const socketP99: number[] = [];
    for (const r of mine) {
      const seen = new Set<number>();
      const lags: number[] = [];
      for (let i = 0; i < r.records.length; i++) {
        const index = r.records[i];
        total++;
        if (seen.has(index)) duplicates++;
        seen.add(index);
        if (tenantOf[index] !== tenantId) foreign++;
        const ack = ackOf[index];
        if (ack === undefined) {
          if (tenantOf[index] === tenantId) unacknowledged++;
          continue;
        }
        const lag = r.arrivals[i] - ack;
        lags.push(lag);
        all.push(lag);
        if (r.arrivals[i] <= loadEnded) during.push(lag);
        fromOccurred.push(r.arrivals[i] - occurredAt[index]);
      }
      const expectedHere = group === 0 ? created : 0;
      const got = [...seen].filter((index) => ackOf[index] !== undefined).length;
      missing += expectedHere - got;
      fewest = Math.min(fewest, seen.size);
      most = Math.max(most, seen.size);
      if (lags.length > 0) socketP99.push(percentile(Float64Array.from(lags).sort(), 99));
    }
    const sorted = (values: number[]) => Float64Array.from(values).sort();
    const allSorted = sorted(all);
    const duringSorted = sorted(during);
    const occurredSorted = sorted(fromOccurred);
    const p99s = sorted(socketP99);
    return {
      sockets: mine.length,
      expectedPerSocket: group === 0 ? created : 0,
      expected: (group === 0 ? created : 0) * mine.length,
      received: total,
      fewestPerSocket: mine.length ? fewest : 0,
      mostPerSocket: most,
      missing,
      duplicates,
      foreign,
      unacknowledged,
      lagFromAckMs: {
        duringLoad: { p50: percentile(duringSorted, 50), p99: percentile(duringSorted, 99) },
        all: { p50: percentile(allSorted, 50), p99: percentile(allSorted, 99) },
        socketP99: {
          fewest: p99s[0] ?? NaN,
          median: percentile(p99s, 50),
          most: p99s[p99s.length - 1] ?? NaN,
        },
      },
      lagFromOccurredAtMs: { p50: percentile(occurredSorted, 50), p99: percentile(occurredSorted, 99) },
    };
  });
}

async function main() {
  const sockets: WebSocket[] = [];
  for (const [group, { token, sockets: count }] of GROUPS.entries())
    // A few at a time: the service authenticates each connection_init.
    for (let i = 0; i < count; i += 50)
      sockets.push(
        ...(await Promise.all(Array.from({ length: Math.min(50, count - i) }, () => open(group, token)))),
      );
  for (const ws of sockets) ws.removeAllListeners('close');
  process.send!({ ready: sockets.length });
  process.on('message', (m: { kind: string; acks?: Record<string, number>; loadEnded?: number }) => {
    if (m.kind === 'count') process.send!({ receipts });
    if (m.kind === 'stats') process.send!(stats(m.acks ?? {}, m.loadEnded ?? Date.now()));
    if (m.kind === 'stop') {
      for (const ws of sockets) ws.terminate();
      process.exit(0);
    }
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
