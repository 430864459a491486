import { recordStatements, type StatementLog } from '../support/statements';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import type { Client } from '../support/http';
import { createEmployee, createTask } from './helpers';

/**
 * Derived fields (an epic's owner, a team's members, progress) go through DataLoaders, so a page
 * costs the same number of SQL statements whatever its size. Statements are counted at the pg
 * driver; authentication's own statements are counted too.
 */
describe('HR pages cost a fixed, small number of SQL statements', () => {
  const ROWS = 50;
  /**
   * Statements of a page beyond authentication: the page with its count (one statement), and one
   * per kind of derived value. Issue 7's target: a page of features with its events and derived
   * fields in at most 3.
   */
  const PAGE_BOUND = 4;
  /** Everything a request costs, authentication included (it sets up the tenant and loads the user). */
  const TOTAL_BOUND = 6;
  let server: TestServer;
  let a: TestTenant;
  let log: StatementLog | undefined;
  let auth = 0;
  const counts: string[] = [];

  /** Runs `work` in batches, so building 300 records does not take 300 round trips in a row. */
  async function inBatches<T>(count: number, work: (i: number) => Promise<T>): Promise<T[]> {
    const out: T[] = [];
    for (let start = 0; start < count; start += 10) {
      const batch = Array.from({ length: Math.min(10, count - start) }, (_, k) => work(start + k));
      out.push(...(await Promise.all(batch)));
    }
    return out;
  }

  /**
   * The statements a request sent. A read-only request repeats the tenant's settings in each of
   * its round trips (ConnectionTransaction.readOnly): that envelope is counted once.
   */
  async function counted(client: Client, path: string) {
    log!.take();
    const res = await client.get(path);
    expect(res.status).toBe(200);
    const texts = log!.take();
    const settings = texts.filter((t) => /set_config\('role'/.test(t)).length;
    return { count: texts.length - Math.max(0, settings - 1), body: res.body };
  }

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Query count');
    const people = await inBatches(10, (i) =>
      createEmployee(a.client, { firstName: `P${i}`, lastName: 'Person', email: `p${i}@example.test` }),
    );
    const member = (i: number, k: number) => people[(i + k) % people.length];
    const projects = await inBatches(ROWS, async (i) => {
      const res = await a.client.post('/hr/projects', {
        name: `Project ${i}`,
        leadId: people[i % 10],
        teamMemberIds: [member(i, 1), member(i, 2), member(i, 3)],
      });
      return res.body.id as string;
    });
    const epics = await inBatches(ROWS, async (i) => {
      const res = await a.client.post('/hr/epics', {
        name: `Epic ${i}`,
        ownerId: people[i % 10],
        projectId: projects[i],
      });
      return res.body.id as string;
    });
    const features = await inBatches(ROWS, async (i) => {
      const res = await a.client.post('/hr/features', { name: `Feature ${i}`, epicId: epics[i] });
      return res.body.id as string;
    });
    await inBatches(ROWS * 2, (i) =>
      createTask(a.client, {
        title: `Task ${i}`,
        featureId: features[i % ROWS],
        status: i < ROWS ? 'DONE' : 'TODO',
      }),
    );
    await inBatches(ROWS, (i) =>
      a.client.post('/hr/teams', {
        name: `Team ${i}`,
        memberIds: [member(i, 0), member(i, 4), member(i, 7)],
      }),
    );

    log = recordStatements();
  }, 120_000);
  afterAll(async () => {
    log?.stop();
    if (process.env.HR_SHOW_COUNTS) console.log(counts.join('\n'));
    await server.close();
  });

  it('the counter sees statements: authentication alone costs a fixed few', async () => {
    // find-list without ids answers [] without a query: what remains is authentication.
    const { count, body } = await counted(a.client, '/hr/features/find-list');
    expect(body).toEqual([]);
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(2);
    auth = count;
  });

  const pages: [string, string, (row: any) => void, number?][] = [
    [
      'features (epic, task counts, progress)',
      '/hr/features/dynamic-search',
      (f) => {
        expect(f.epic).toEqual(expect.objectContaining({ id: f.epicId }));
        expect(f).toMatchObject({ taskCount: 2, completedTaskCount: 1, progress: 50 });
        expect(f.events).toEqual([expect.objectContaining({ type: 'CREATE' })]);
      },
      // The epic and the task tally are selected in the page's own statement (GroupDef.joined).
      1,
    ],
    [
      'epics (owner, feature count, task counts)',
      '/hr/epics/dynamic-search',
      (e) => {
        expect(e.owner).toEqual(
          expect.objectContaining({ id: e.ownerId, fullName: expect.stringMatching(/Person$/) }),
        );
        expect(e).toMatchObject({ featureCount: 1, taskCount: 2, completedTaskCount: 1, progress: 50 });
      },
    ],
    [
      'teams (members), enriched search',
      '/hr/teams/dynamic-search-enriched',
      (t) => expect(t.members.map((m: any) => m.id)).toEqual(t.memberIds),
    ],
    [
      'projects (lead, team members, epic and task counts)',
      '/hr/projects/dynamic-search',
      (p) => {
        expect(p.lead).toEqual(expect.objectContaining({ id: p.leadId }));
        expect(p.teamMembers.map((m: any) => m.id)).toEqual(p.teamMemberIds);
        expect(p).toMatchObject({ epicCount: 1, taskCount: 2, completedTaskCount: 1, progress: 50 });
      },
    ],
  ];

  it.each(pages)(
    'a page of %s costs the same for 5 and 50 rows, and few statements',
    async (_name, path, check, bound = PAGE_BOUND) => {
      const small = await counted(a.client, `${path}?size=5`);
      const large = await counted(a.client, `${path}?size=${ROWS}`);
      expect(small.body.numberOfElements).toBe(5);
      expect(large.body.numberOfElements).toBe(ROWS);
      for (const row of large.body.content) check(row);
      expect(large.count).toBe(small.count);
      expect(auth).toBeGreaterThan(0);
      expect(large.count - auth).toBeLessThanOrEqual(bound);
      expect(large.count).toBeLessThanOrEqual(TOTAL_BOUND);
      counts.push(`${path}: ${large.count} statements, ${auth} of them authentication`);
    },
  );

  it('a feature by id is one statement with its epic and task tally', async () => {
    const [first] = (await counted(a.client, '/hr/features/dynamic-search?size=1')).body.content;
    const { count, body } = await counted(a.client, `/hr/features/find/${first.id}`);
    expect(body).toMatchObject({ epic: first.epic, taskCount: 2, completedTaskCount: 1, progress: 50 });
    expect(count - auth).toBe(1);
  });

  it('a user holding a role pays no more statements per page size (roles load with the user)', async () => {
    const user = await a.userWith(['READ_FEATURES', 'READ_EPICS', 'READ_PROJECTS'], { hasFullAccess: true });
    // Creating the user notifies every process; heard after the warm-up below, it would drop the
    // caller that request remembered, and the next request would read the user again.
    await server.callersHeard();
    // The caller's first request also reads the user (the caller cache is cold), and signs the user
    // in, a write made beside it: neither is compared here.
    expect((await user.client.get('/hr/features/dynamic-search?size=1')).status).toBe(200);
    await server.signedIn(user.userId);
    for (const path of [
      '/hr/features/dynamic-search',
      '/hr/epics/dynamic-search',
      '/hr/projects/dynamic-search',
    ]) {
      const small = await counted(user.client, `${path}?size=5`);
      const large = await counted(user.client, `${path}?size=${ROWS}`);
      expect(large.count).toBe(small.count);
      expect(large.count).toBeLessThanOrEqual(TOTAL_BOUND);
    }
  });

  // Last: it adds a feature without tasks, which the pages above would show.
  it("creating a feature reads its epic once (the reference check primes the answer's epic) and nothing it wrote", async () => {
    const [first] = (await counted(a.client, '/hr/features/dynamic-search?size=1')).body.content;
    log!.take();
    const res = await a.client.post('/hr/features', { name: 'Counted', epicId: first.epicId });
    expect(res.status).toBe(201);
    expect(res.body.epic).toEqual(first.epic);
    const statements = log!.take();
    expect(statements.filter((s) => /from "epic"/.test(s))).toHaveLength(1);
    expect(statements.some((s) => /insert into "feature"/.test(s))).toBe(true);
    // Nor does it read back what it wrote: its history is the entry it made, its tally empty.
    expect(statements.filter((s) => /from record_history|from "task"/.test(s))).toEqual([]);
    const found = await a.client.get(`/hr/features/find/${res.body.id}`);
    expect(res.body.events).toEqual(found.body.events);
    expect(res.body.events).toEqual([
      expect.objectContaining({ type: 'CREATE', description: 'Created Feature' }),
    ]);
    expect([res.body.taskCount, res.body.completedTaskCount, res.body.progress]).toEqual([0, 0, 0]);
    expect([found.body.taskCount, found.body.completedTaskCount, found.body.progress]).toEqual([0, 0, 0]);
  });
});
