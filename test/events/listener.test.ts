import { Client } from 'pg';
import { startListener, type Listener } from '../../src/db/listener';
import { createLogger } from '../../src/logger';
import { workerDatabaseUrl } from '../support/database';
import { waitFor } from './receiver';

/** The reusable LISTEN connection: notifications arrive, and keep arriving after the connection is cut. */
describe('the listener', () => {
  const channel = 'bms_test_listener';
  let url: string;
  let peer: Client;
  let listener: Listener | undefined;

  beforeAll(async () => {
    url = await workerDatabaseUrl();
    peer = new Client({ connectionString: url });
    await peer.connect();
  });
  afterAll(async () => {
    await listener?.close();
    await peer.end();
  });

  it('hears notifications committed on another connection, only once committed', async () => {
    const heard: string[] = [];
    listener = startListener({
      url,
      channels: [channel],
      log: createLogger('silent'),
      onNotification: (c, payload) => heard.push(`${c}:${payload}`),
    });
    await listener.ready;
    await peer.query('begin');
    await peer.query(`select pg_notify($1, 'rolled back')`, [channel]);
    await peer.query('rollback');
    await peer.query(`select pg_notify($1, 'committed')`, [channel]);
    await waitFor(() => heard.length > 0, 15_000, 'the notification');
    expect(heard).toEqual([`${channel}:committed`]);
    await listener.close();
    listener = undefined;
  });

  it('refuses a channel name that is not a plain identifier', () => {
    expect(() =>
      startListener({
        url,
        channels: ['x; drop'],
        log: createLogger('silent'),
        onNotification: () => undefined,
      }),
    ).toThrow(/not a plain channel name/);
  });

  // Cutting one connection needs a server: the embedded database serves every client from one session.
  (process.env.DATABASE_URL ? it : it.skip)('listens again after its connection is cut', async () => {
    const heard: string[] = [];
    const connected: boolean[] = [];
    listener = startListener({
      url,
      channels: [channel],
      log: createLogger('silent'),
      retryMs: 50,
      onNotification: (_c, payload) => heard.push(payload),
      onConnected: (again) => connected.push(again),
    });
    await listener.ready;
    const { rows } = await peer.query<{ n: number }>(
      `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
       where datname = current_database() and query = $1 and pid <> pg_backend_pid()`,
      [`LISTEN ${channel}`],
    );
    expect(rows[0].n).toBe(1);
    await waitFor(() => connected.includes(true), 15_000, 'the reconnection');
    expect(listener.connected).toBe(true);
    await peer.query(`select pg_notify($1, 'after the cut')`, [channel]);
    await waitFor(() => heard.includes('after the cut'), 15_000, 'the notification after the cut');
  });
});
