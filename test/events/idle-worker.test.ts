import pg from 'pg';
import { createLogger } from '../../src/logger';
import { eventSettings, type EventSettings } from '../../src/events/settings';
import { startEventWorker, type EventWorker } from '../../src/events/worker';
import { startServer, type TestServer } from '../support/server';

/**
 * An idle event worker is quiet: with nothing to do, it looks for work less and less often, up
 * to once per EVENT_IDLE_POLL_MAX_MS per loop (docs/events.md, "Delivery, retries and order"). Counted as statements
 * sent by this process's database clients, not by time spent.
 */
const POLL_MS = 50;
const IDLE_MAX_MS = 1000;
const WINDOW_MS = 5000;

describe('an idle event worker', () => {
  let server: TestServer;
  let worker: EventWorker | undefined;
  let settings: EventSettings;
  beforeAll(async () => {
    server = await startServer();
    settings = { ...eventSettings({}), pollIntervalMs: POLL_MS, idlePollMaxMs: IDLE_MAX_MS };
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await server?.close();
  });

  it('sends no statement more often than its documented idle interval', async () => {
    const sent: string[] = [];
    const query = pg.Client.prototype.query;
    const spy = jest.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
      this: pg.Client,
      ...args: unknown[]
    ) {
      const first = args[0] as string | { text?: string };
      sent.push(typeof first === 'string' ? first : String(first?.text));
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query);
    try {
      // The database is this jest worker's, shared with the files it ran before: work they left
      // (events not yet fanned out, deliveries whose retry comes due) is not idleness, so none is
      // left for this worker to find.
      const admin = server.orm.em.getConnection();
      await admin.execute('update outbox_event set dispatched_at = now() where dispatched_at is null');
      await admin.execute(`delete from event_delivery where status = 'PENDING'`);
      worker = startEventWorker(server.orm, createLogger('silent'), settings);
      // From the poll interval, doubling, the waits reach the idle maximum within about 2 s.
      await new Promise((r) => setTimeout(r, 2 * IDLE_MAX_MS + 500));
      sent.length = 0;
      await new Promise((r) => setTimeout(r, WINDOW_MS));
      const statements = sent.length;
      // Two loops, each looking at most once per IDLE_MAX_MS: the dispatch's look is four client
      // calls (BEGIN, the worker's settings, the claim, COMMIT), the deliveries' one round trip
      // per delivery channel's claim (four of them).
      const perLook = 4 + 4;
      const bound = (WINDOW_MS / IDLE_MAX_MS + 1) * perLook;
      expect(statements).toBeLessThanOrEqual(bound);
      // At the poll interval, the same window would have taken a hundred looks per loop.
      expect(statements).toBeLessThan(WINDOW_MS / POLL_MS);
    } finally {
      spy.mockRestore();
    }
  }, 60_000);
});
