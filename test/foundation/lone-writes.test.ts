import type { GraphQLSchema } from 'graphql';
import { buildBareSchema } from '../../src/app-schema';
import { ChangeSubscriber, type Changes } from '../../src/db/record-changes';
import { appGroups as groups } from '../../src/app-modules';
import { recordInput, type Known } from '../support/record-inputs';
import { startServer, type TestServer, type TestTenant } from '../support/server';

/**
 * A create, an update or a deletion that is its operation's only field is written past the unit
 * of work (src/db/orm-bypass/lone-create.ts, lone-update.ts); one beside another field goes
 * through MikroORM's flush. For every group, the same inputs written both ways, each in a tenant
 * of its own, must be answered alike and store the same: the record's columns, its history
 * entries and its events.
 */
type Row = Record<string, unknown>;
type Answer = { data?: Row; errors?: { message: string }[] };

/** What differs between two tenants' records by construction: ids, tenants, times, authors, secrets. */
const OWN = /^(id|tenant_id|created|updated|created_by|updated_by|occurred_at)$|_ids?$|_token$/;
const RECORD_DATA_OWN = /^(id|tenantId|created|updated|createdBy|updatedBy)$|Ids?$|Token$/;

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** An error's message, its ids (another tenant's records) left out. */
const messagesOf = (errors?: { message: string }[]) => errors?.map((e) => e.message.replace(UUID, '<id>'));

const without = (row: Row, own: RegExp): Row =>
  Object.fromEntries(Object.entries(row).filter(([key]) => !own.test(key)));

/** How each create, and each update (`update:<id>`), was handed to the subscribers: by a flush, or alone. */
class Probe extends ChangeSubscriber {
  readonly seen = new Map<string, 'flush' | 'alone'>();
  onChanges({ changes, uow }: Changes): void {
    for (const c of changes) {
      const id = (c.entity as { id: string }).id;
      if (c.type === 'create') this.seen.set(id, uow ? 'flush' : 'alone');
      if (c.type === 'update') this.seen.set(`update:${id}`, uow ? 'flush' : 'alone');
    }
  }
}

describe('a lone write stores what the flush would', () => {
  let server: TestServer;
  let schema: GraphQLSchema;
  const probe = new Probe();
  const sides: { tenant: TestTenant; known: Known; extra: string }[] = [];
  /** The records the first test made, both ways, by group. */
  const made = new Map<string, string[]>();

  beforeAll(async () => {
    server = await startServer();
    server.orm.em.getEventManager().registerSubscriber(probe);
    schema = await buildBareSchema();
    for (const [name, extra] of [
      ['Lone', ''],
      ['Flushed', ' __typename'],
    ]) {
      const tenant = await server.tenant(name);
      sides.push({ tenant, known: { ids: new Map(), username: tenant.adminEmail }, extra });
    }
  });
  afterAll(() => server.close());

  const query = async (sql: string, params: unknown[]): Promise<Row[]> =>
    (await server.orm.em.getConnection().execute(sql, params)) as Row[];

  /** The stored record, its history and its events, less what differs between tenants. */
  async function stored(table: string, id: string, admin: string) {
    const [record] = (await query(`select * from "${table}" where id = ?`, [id])) as (Row | undefined)[];
    const history = await query(
      `select record_type, type, description, changes from record_history where record_id = ? order by seq`,
      [id],
    );
    const events = await query(
      `select type, resource_type, data from outbox_event where resource_id = ? order by occurred_at, type`,
      [id],
    );
    const own = {
      record: record ? without(record, OWN) : null,
      history: history.map((h) => ({
        ...h,
        changes: h.changes && without(h.changes as Row, RECORD_DATA_OWN),
      })),
      events: events.map((e) => ({ ...e, data: without(e.data as Row, RECORD_DATA_OWN) })),
    };
    return JSON.parse(JSON.stringify(own).replace(UUID, '<id>').replaceAll(admin, '<admin>')) as typeof own;
  }

  /** What a GraphQL operation answered, its errors' ids left out, both ways. */
  async function bothWays(operation: (extra: string) => string, variables: (side: number) => Row) {
    const answers = await Promise.all(
      sides.map(({ tenant, extra }, i) => tenant.client.graphql(operation(extra), variables(i))),
    );
    return answers.map((a) => a.body as Answer);
  }

  /** Both ways' answers of `field`, and their errors, alike. */
  function answeredAlike(group: string, field: string, lone: Answer, flushed: Answer): void {
    const of = (answer: Answer) => ({
      group,
      answer: answer.data?.[field],
      errors: messagesOf(answer.errors),
    });
    expect(of(lone)).toEqual(of(flushed));
  }

  it('for every group, its columns, history and events alike', async () => {
    const compared: string[] = [];
    for (const group of groups) {
      const mutation = schema.getMutationType()!.getFields()[`create${group.name}`];
      const argType = mutation.args.find((a) => a.name === 'input')!.type;
      const table = server.orm.getMetadata().get(group.entity.name).tableName;
      for (const fill of ['lists', 'full', 'required'] as const) {
        const [lone, flushed] = await bothWays(
          (extra) =>
            `mutation($input: ${String(argType)}) { create${group.name}(input: $input) { id }${extra} }`,
          (i) => ({ input: recordInput(argType, 0, fill, sides[i].known) }),
        );
        expect({ group: group.name, fill, errors: messagesOf(lone.errors) }).toEqual({
          group: group.name,
          fill,
          errors: messagesOf(flushed.errors),
        });
        if (lone.errors) continue;
        const ids = [lone, flushed].map((a) => (a.data![`create${group.name}`] as Row).id as string);
        sides.forEach(({ known }, i) => known.ids.set(group.name, [ids[i]]));
        const [a, b] = await Promise.all(ids.map((id, i) => stored(table, id, sides[i].tenant.adminEmail)));
        expect({ group: group.name, ...a }).toEqual({ group: group.name, ...b });
        expect({ group: group.name, seen: ids.map((id) => probe.seen.get(id)) }).toEqual({
          group: group.name,
          seen: [group.afterSave ? 'flush' : 'alone', 'flush'],
        });
        compared.push(group.name);
        made.set(group.name, ids);
        break;
      }
    }
    // Nearly every group takes a made-up input; one that needs what it cannot give (a coverage job
    // names a static model of its type) is refused alike both ways.
    expect(compared.length).toBeGreaterThan(groups.length * 0.8);
  });

  it('an update of each, its columns, history and events alike', async () => {
    const updated: string[] = [];
    const flushedAfterAll: string[] = [];
    for (const group of groups) {
      const ids = made.get(group.name);
      const mutation = schema.getMutationType()!.getFields()[`update${group.name}`];
      if (!ids || !mutation) continue;
      const argType = mutation.args.find((a) => a.name === 'input')!.type;
      const table = server.orm.getMetadata().get(group.entity.name).tableName;
      const [lone, flushed] = await bothWays(
        (extra) =>
          `mutation($id: ID!, $input: ${String(argType)}) { update${group.name}(id: $id, input: $input) { version } ${extra} }`,
        (i) => ({ id: ids[i], input: recordInput(argType, 1, 'full', sides[i].known) }),
      );
      answeredAlike(group.name, `update${group.name}`, lone, flushed);
      if (lone.errors) continue;
      const [a, b] = await Promise.all(ids.map((id, i) => stored(table, id, sides[i].tenant.adminEmail)));
      expect({ group: group.name, ...a }).toEqual({ group: group.name, ...b });
      const [alone, flush] = ids.map((id) => probe.seen.get(`update:${id}`));
      // An update that changes nothing of a record's own is not handed over at all.
      expect({ group: group.name, flush: flush ?? 'none' }).toEqual({
        group: group.name,
        flush: alone === undefined ? 'none' : 'flush',
      });
      if (alone === 'alone') updated.push(group.name);
      else if (alone && !group.afterSave) flushedAfterAll.push(group.name);
    }
    // Those whose own rule read a linked record the full input names (a feature's epic) through
    // the unit of work are written through the flush after all.
    expect(updated.length).toBeGreaterThan(groups.length * 0.6);
    expect(flushedAfterAll.length).toBeLessThan(groups.length * 0.2);
  });

  it('an update of the fields a feature holds itself goes past the flush', async () => {
    const ids = made.get('Feature')!;
    const [lone, flushed] = await bothWays(
      (extra) =>
        `mutation($id: ID!) { updateFeature(id: $id, input: { name: "Renamed", priority: LOW }) { version name priority } ${extra} }`,
      (i) => ({ id: ids[i] }),
    );
    expect(lone.data?.updateFeature).toEqual(flushed.data?.updateFeature);
    expect(lone.errors ?? flushed.errors).toBeUndefined();
    const [a, b] = await Promise.all(ids.map((id, i) => stored('feature', id, sides[i].tenant.adminEmail)));
    expect(a).toEqual(b);
    expect(ids.map((id) => probe.seen.get(`update:${id}`))).toEqual(['alone', 'flush']);
  });

  it("an update whose group's rule changes another record is flushed, alike", async () => {
    // A feature moved to another epic takes its tasks along (the features group's beforeSave):
    // with the tasks in the unit of work, the lone side's record is written by the flush too.
    const made = await Promise.all(
      sides.map(async ({ tenant }) => {
        const epic = async (name: string) =>
          (
            await tenant.client.graphql(`mutation($i: CreateEpicInput!) { createEpic(input: $i) { id } }`, {
              i: { name },
            })
          ).body.data.createEpic.id as string;
        const [from, to] = [await epic('From'), await epic('To')];
        const feature = (
          await tenant.client.graphql(
            `mutation($i: CreateFeatureInput!) { createFeature(input: $i) { id } }`,
            {
              i: { name: 'Moving', epicId: from },
            },
          )
        ).body.data.createFeature.id as string;
        const task = (
          await tenant.client.graphql(`mutation($i: CreateTaskInput!) { createTask(input: $i) { id } }`, {
            i: { title: 'Along', featureId: feature, epicId: from },
          })
        ).body.data.createTask.id as string;
        return { to, feature, task };
      }),
    );
    const [lone, flushed] = await bothWays(
      (extra) =>
        `mutation($id: ID!, $epicId: ID) { updateFeature(id: $id, input: { epicId: $epicId, name: "Moved" }) { version } ${extra} }`,
      (i) => ({ id: made[i].feature, epicId: made[i].to }),
    );
    expect(lone.errors ?? flushed.errors).toBeUndefined();
    expect([lone, flushed].map((a) => a.data?.updateFeature)).toEqual([{ version: 2 }, { version: 2 }]);
    const moved = await Promise.all(
      made.map(async ({ to, task }) => {
        const [row] = await query(`select epic_id from task where id = ?`, [task]);
        return row.epic_id === to;
      }),
    );
    expect(moved).toEqual([true, true]);
    const [a, b] = await Promise.all(
      made.map(({ feature }, i) => stored('feature', feature, sides[i].tenant.adminEmail)),
    );
    expect(a).toEqual(b);
    expect(made.map(({ feature }) => probe.seen.get(`update:${feature}`))).toEqual(['flush', 'flush']);
  });

  it('a deletion of each, its audit row, history and event alike', async () => {
    const seen: string[] = [];
    // The later groups' records name the earlier ones': those go first.
    for (const group of [...groups].reverse()) {
      const ids = made.get(group.name);
      if (!ids) continue;
      const [lone, flushed] = await bothWays(
        (extra) => `mutation($id: ID!) { delete${group.name}(id: $id)${extra} }`,
        (i) => ({ id: ids[i] }),
      );
      answeredAlike(group.name, `delete${group.name}`, lone, flushed);
      if (lone.errors) continue;
      const [a, b] = await Promise.all(
        ids.map(async (id, i) => {
          const admin = sides[i].tenant.adminEmail;
          const [entry] = await query(`select id, data from audit_log where entity_id = ?`, [id]);
          const kept = await stored('audit_log', entry.id as string, admin);
          seen.push(`${i}:${probe.seen.get(entry.id as string)}`);
          const logged = {
            entry: without(kept.record!, /^(id|data)$/),
            data: without(entry.data as Row, RECORD_DATA_OWN),
            ...(await stored(server.orm.getMetadata().get(group.entity.name).tableName, id, admin)),
          };
          return JSON.parse(JSON.stringify(logged).replace(UUID, '<id>').replaceAll(admin, '<admin>')) as Row;
        }),
      );
      expect({ group: group.name, ...a }).toEqual({ group: group.name, ...b });
    }
    // Every deletion of the flushed side went through the flush; the lone side's past it, but
    // those that clear another record's link to the deleted one.
    expect(seen.filter((s) => s.startsWith('1:')).every((s) => s === '1:flush')).toBe(true);
    const alone = seen.filter((s) => s === '0:alone').length;
    expect(alone).toBeGreaterThan(seen.length / 2 / 2);
  });
});
