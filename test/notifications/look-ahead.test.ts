import { startServer, type TestServer, type TestTenant } from '../support/server';
import { tripsDuring } from '../support/statements';

/**
 * A create that produces a notification (a feature put in an epic: to the user of the epic's
 * owner) sends its recipient lookup ahead of its flush, with the request's first read, instead of
 * a round trip of its own between the reads and the writes (src/domain/notifications/look-ahead.ts).
 * Seen at the pg driver: each `query` call is one round trip (a pipeline is one call).
 */
const OWNER_LOOKUP = /from epic p join employee e/;
const pipelined = Boolean(process.env.DATABASE_URL);

describe("a create's notification recipients are looked up with its first read", () => {
  let server: TestServer;
  let a: TestTenant;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Look ahead');
  }, 120_000);
  afterAll(() => server?.close());

  const created = async (path: string, body: object): Promise<string> => {
    const res = await a.client.post(path, body);
    expect(res.status).toBe(201);
    return (res.body as { id: string }).id;
  };

  /** An employee, made through GraphQL (employees have no REST create). */
  const employee = async (input: object): Promise<string> => {
    const res = await a.client.graphql<{ createEmployee: { id: string } }>(
      'mutation($i: EmployeeInput!) { createEmployee(input: $i) { id } }',
      { i: input },
    );
    expect(res.body.errors).toBeUndefined();
    return res.body.data!.createEmployee.id;
  };

  const featureIn = (epicId: string) => () => created('/hr/features', { name: 'Search', epicId });

  it('sends the lookup once, with the first read, and still notifies the owner', async () => {
    const owner = await a.userWith([]);
    const ownerEmployee = await employee({
      firstName: 'Owner',
      email: owner.email,
      userId: owner.userId,
    });
    const epicId = await created('/hr/epics', { name: 'Q3', ownerId: ownerEmployee });
    await featureIn(epicId)(); // the caller and the statements warmed
    await server.callersHeard();

    const trips = await tripsDuring(featureIn(epicId));
    const withLookup = trips.filter((t) => t.some((s) => OWNER_LOOKUP.test(s)));
    expect(withLookup).toHaveLength(1);
    expect(withLookup[0].filter((s) => OWNER_LOOKUP.test(s))).toHaveLength(1);
    if (pipelined) {
      // The lookup rode with the request's first read of the epic, in the request's first trip.
      expect(trips.indexOf(withLookup[0])).toBe(0);
      expect(withLookup[0].some((s) => /from "epic"/.test(s))).toBe(true);
    }

    const feed = await owner.client.get('/notifications/me');
    expect(feed.status).toBe(200);
    const assigned = JSON.stringify(feed.body).match(/was assigned to you/g) ?? [];
    expect(assigned).toHaveLength(2);
  });

  // The embedded database takes no pipelines: there every statement is a round trip of its own.
  (pipelined ? it : it.skip)('takes one round trip fewer than a lookup at the flush would', async () => {
    // An owner without a user: nobody to notify, so the flush reads nothing more.
    const ownerEmployee = await employee({ firstName: 'No', lastName: 'User' });
    const epicId = await created('/hr/epics', { name: 'Q4', ownerId: ownerEmployee });
    await featureIn(epicId)();
    const trips = await tripsDuring(featureIn(epicId));
    // BEGIN, the settings, the lookup and the epic's read; then the writes with COMMIT.
    expect(trips).toHaveLength(2);
  });
});
