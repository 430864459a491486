/**
 * The fan-out's subscribers, in a process of their own (so their parsing does not take the
 * service's or the load's event loop): BENCH_SOCKETS WebSockets to BENCH_WS_URL, each speaking
 * graphql-transport-ws with BENCH_TOKEN and subscribing once to BENCH_QUERY. Per receipt it reads
 * the event's id and occurredAt (without parsing the whole message: 1,000 sockets each get every
 * event) and records the lag, arrival minus occurredAt. Tells "ready" once every socket is
 * subscribed, then its figures whenever asked, over IPC.
 */
import WebSocket from 'ws';

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 1000);
const URL = process.env.BENCH_WS_URL ?? '';
const TOKEN = process.env.BENCH_TOKEN ?? '';
const QUERY = process.env.BENCH_QUERY ?? '';

let lags: number[] = [];
let receipts = 0;
let duplicates = 0;
const perSocket: Set<string>[] = [];
const ID = /"id":"([0-9a-f-]{36})","type"/;
const OCCURRED = /"occurredAt":"([^"]+)"/;

function open(index: number): Promise<WebSocket> {
  const seen = new Set<string>();
  perSocket[index] = seen;
  const ws = new WebSocket(URL, 'graphql-transport-ws');
  return new Promise((resolve, reject) => {
    ws.on('open', () =>
      ws.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${TOKEN}` } })),
    );
    ws.on('error', reject);
    ws.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      if (text.startsWith('{"type":"connection_ack"')) {
        ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: QUERY } }));
        // The server holds the subscription once it has run the operation; a moment later at most.
        setTimeout(() => resolve(ws), 200);
        return;
      }
      const occurred = OCCURRED.exec(text);
      const id = ID.exec(text);
      if (!occurred || !id) return;
      receipts++;
      lags.push(Date.now() - Date.parse(occurred[1]));
      if (seen.has(id[1])) duplicates++;
      seen.add(id[1]);
    });
  });
}

async function main() {
  const sockets: WebSocket[] = [];
  // A few at a time: the service authenticates each connection_init.
  for (let i = 0; i < SOCKETS; i += 50)
    sockets.push(
      ...(await Promise.all(Array.from({ length: Math.min(50, SOCKETS - i) }, (_, j) => open(i + j)))),
    );
  process.send!({ ready: sockets.length });
  process.on('message', (m: string) => {
    if (m === 'stats') {
      const counts = perSocket.map((s) => s.size);
      process.send!({
        receipts,
        duplicates,
        lags,
        fewest: Math.min(...counts),
        most: Math.max(...counts),
      });
    }
    if (m === 'reset') lags = [];
    if (m === 'stop') {
      for (const ws of sockets) ws.terminate();
      process.exit(0);
    }
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
