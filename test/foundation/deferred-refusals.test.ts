import { randomUUID } from 'node:crypto';
import { Client as PgClient } from 'pg';
import { startServer, type TestServer, type TestTenant } from '../support/server';

/**
 * A family create's insert, update and a group's delete may go to the database with the request's
 * COMMIT rather than in a round trip of their own (src/db/orm-bypass/deferred-writes.ts). Whenever
 * the database refuses them, the client is answered exactly as when the refusal came from the
 * statement sent on its own: the same status and body over REST, and over GraphQL the same error
 * at the same field, its data withheld; and nothing of the refused write is kept (the record, its
 * history and its outbox event).
 *
 * The refusals are provoked with rules the table gets for this file only: a check on the
 * feature's name (a field the database then names), a table that keeps a feature from being
 * deleted (a restrict key, which names no field), and a trigger that skips the update of a feature
 * to one name (the update then matches no row, as when another request changed the record since
 * it was read: the optimistic lock's 409).
 */
const REFUSED = 'refused by the database';
/** A GraphQL document's one createFeature (on its second line), refused for REFUSED: its answer. */
const REFUSED_AT_CREATE = {
  errors: [
    {
      message: 'name: is not one of the values the field allows',
      locations: [{ line: 2, column: 9 }],
      path: ['createFeature'],
      extensions: {
        code: 'BAD_REQUEST',
        status: 400,
        errors: [{ field: 'name', reason: 'is not one of the values the field allows' }],
      },
    },
  ],
  data: null,
};

const SKIPPED = 'skipped by the database';
/** A GraphQL document's one updateFeature (on its second line) that matched no row: its answer. */
const LOCK_FAILED_AT_UPDATE = {
  errors: [
    {
      message: 'the record was changed by someone else; read it again and retry',
      locations: [{ line: 2, column: 9 }],
      path: ['updateFeature'],
      extensions: { code: 'CONFLICT', status: 409 },
    },
  ],
  data: null,
};

/**
 * A restrict key's refusal, answered alike on both databases, though PostgreSQL reports a foreign
 * key violation and the embedded database a restrict violation.
 */
const STILL_REFERRED_TO = 'the record is referred to by records that prevent this change';

describe('writes sent with the COMMIT: what a refusal is answered', () => {
  let server: TestServer;
  let a: TestTenant;

  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    server.orm.em.getConnection().execute(text, params) as Promise<T[]>;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Deferred refusals');
    await sql(`alter table feature add constraint feature_name_check check (name <> '${REFUSED}') not valid`);
    await sql(
      `create table probe_feature_hold (tenant_id uuid not null, id uuid primary key, feature_id uuid not null,
         foreign key (tenant_id, feature_id) references feature (tenant_id, id) on delete restrict)`,
    );
    await sql(
      `create function probe_skip_update() returns trigger language plpgsql as $$
         begin if new.name = '${SKIPPED}' then return null; end if; return new; end $$`,
    );
    await sql(
      `create trigger probe_skip_update before update on feature for each row execute function probe_skip_update()`,
    );
  });
  afterAll(async () => {
    await sql(`drop trigger if exists probe_skip_update on feature`);
    await sql(`drop function if exists probe_skip_update()`);
    await sql(`drop table if exists probe_feature_hold`);
    await sql(`alter table feature drop constraint if exists feature_name_check`);
    await server.close();
  });

  /** The features named `name`, and the CREATE history entries and events written for one. */
  const kept = async (name: string) => {
    const [row] = await sql<{ features: number; history: number; outbox: number }>(
      `select (select count(*)::int from feature where tenant_id = ? and name = ?) as features,
              (select count(*)::int from record_history where tenant_id = ? and record_type = 'Feature'
                 and type = 'CREATE' and changes->'name'->>'new' = ?) as history,
              (select count(*)::int from outbox_event where tenant_id = ? and type = 'feature.created'
                 and strpos(data::text, ?) > 0) as outbox`,
      [a.tenantId, name, a.tenantId, name, a.tenantId, JSON.stringify(name)],
    );
    return row;
  };

  /** An error body without what differs per request (its id and time). */
  const body = (res: { body: Record<string, unknown> }) => {
    const { requestId, time, ...rest } = res.body;
    expect(typeof requestId).toBe('string');
    expect(typeof time).toBe('string');
    return rest;
  };

  const held = async () => {
    const feature = (await a.client.post('/hr/features', { name: 'Held' })).body.id as string;
    await sql(`insert into probe_feature_hold values (?, gen_random_uuid(), ?)`, [a.tenantId, feature]);
    return feature;
  };

  /**
   * The statements `work` sends, in order, each with its round trip: statements sent together in
   * one pipeline (PostgreSQL; the embedded database takes them one at a time) share it.
   */
  const statementsOf = async (work: () => Promise<unknown>) => {
    type Query = (this: PgClient, ...args: unknown[]) => unknown;
    const sent: { sql: string; trip: number; client: PgClient }[] = [];
    let trips = 0;
    const original = PgClient.prototype.query as unknown as Query;
    (PgClient.prototype as unknown as { query: Query }).query = function (
      this: PgClient,
      ...args: unknown[]
    ) {
      const trip = trips++;
      const first = args[0] as { text?: string; statements?: { text: string }[] } | string;
      if (typeof first === 'object' && first.statements)
        for (const s of first.statements) sent.push({ sql: s.text, trip, client: this });
      else sent.push({ sql: typeof first === 'string' ? first : (first.text ?? ''), trip, client: this });
      return original.apply(this, args);
    };
    try {
      await work();
    } finally {
      (PgClient.prototype as unknown as { query: Query }).query = original;
    }
    // From BEGIN: a pool's first request asks first whether the database takes pipelines. Only the
    // request's own transaction: a user's first sign-in writes lastLogin beside it.
    // Up to its COMMIT: the connection may serve that write next.
    const begin = sent.findIndex((s) => s.sql === 'begin');
    const own = sent.slice(begin).filter((s) => s.client === sent[begin].client);
    const end = own.findIndex((s) => /^(commit|rollback)$/.test(s.sql));
    return end < 0 ? own : own.slice(0, end + 1);
  };

  it('a create sends its record with the COMMIT, after its history and outbox rows', async () => {
    const sent = await statementsOf(() => a.client.post('/hr/features', { name: 'Sent with the commit' }));
    const [insert, history, outbox, commit] = [
      /^insert into "feature"/,
      /^insert into "record_history"/,
      /^insert into "outbox_event"/,
      /^commit$/,
    ].map((re) => sent.findIndex((s) => re.test(s.sql)));
    expect([history, outbox, insert, commit]).toEqual([commit - 3, commit - 2, commit - 1, sent.length - 1]);
    if (process.env.DATABASE_URL) {
      expect(new Set(sent.slice(history).map((s) => s.trip)).size).toBe(1);
      expect(new Set(sent.map((s) => s.trip)).size).toBe(2);
    }
  });

  it('a delete reads the records and those linking to them at once, and deletes with the COMMIT', async () => {
    const feature = (await a.client.post('/hr/features', { name: 'Goes' })).body.id as string;
    // A process's first delete reads the set-null keys from the catalog, once.
    await a.client.delete(`/hr/features/delete-list?ids=${randomUUID()}`);
    const sent = await statementsOf(() => a.client.delete(`/hr/features/delete-list?ids=${feature}`));
    const read = sent.findIndex((s) => /from "feature"/.test(s.sql) && /^select/.test(s.sql));
    const linking = sent.findIndex((s) => /from "task"/.test(s.sql));
    const [del, audit, commit] = [/^delete from "feature"/, /^insert into "audit_log"/, /^commit$/].map(
      (re) => sent.findIndex((s) => re.test(s.sql)),
    );
    expect(linking).toBe(read + 1);
    expect(del).toBeGreaterThan(linking);
    expect([audit, commit]).toEqual([sent.length - 2, sent.length - 1]);
    if (process.env.DATABASE_URL) {
      expect(sent[linking].trip).toBe(sent[read].trip);
      expect(sent[del].trip).toBe(sent[commit].trip);
      expect(new Set(sent.map((s) => s.trip)).size).toBe(2);
    }
  });

  /** A feature's name and version, its UPDATE history entries and its update events. */
  const updated = async (id: string) => {
    const [row] = await sql<{ name: string; version: number; history: number; outbox: number }>(
      `select name, version,
              (select count(*)::int from record_history where tenant_id = ? and record_id = ? and type = 'UPDATE') as history,
              (select count(*)::int from outbox_event where tenant_id = ? and resource_id = ? and type = 'feature.updated') as outbox
         from feature where tenant_id = ? and id = ?`,
      [a.tenantId, id, a.tenantId, id, a.tenantId, id],
    );
    return row;
  };

  const updateFeature = (id: string, name: string, selection = 'id version name') =>
    a.client.graphql(
      `mutation($id: ID!, $name: String) {
        updateFeature(id: $id, input: { name: $name }) { ${selection} }
      }`,
      { id, name },
    );

  it('an update sends its row with the COMMIT, after its history and outbox rows', async () => {
    const feature = (await a.client.post('/hr/features', { name: 'To rename' })).body.id as string;
    const sent = await statementsOf(() => updateFeature(feature, 'Renamed with the commit'));
    const [history, outbox, update, commit] = [
      /^insert into "record_history"/,
      /^insert into "outbox_event"/,
      /^with "updated" as \(update "feature"/,
      /^commit$/,
    ].map((re) => sent.findIndex((s) => re.test(s.sql)));
    expect([history, outbox, update, commit]).toEqual([commit - 3, commit - 2, commit - 1, sent.length - 1]);
    if (process.env.DATABASE_URL) {
      expect(new Set(sent.slice(history).map((s) => s.trip)).size).toBe(1);
      expect(new Set(sent.map((s) => s.trip)).size).toBe(2);
    }
  });

  it('an update that succeeds answers the version the row has, with its history entry and event', async () => {
    const feature = (await a.client.post('/hr/features', { name: 'Renamed once' })).body.id as string;
    const res = await updateFeature(feature, 'Renamed twice');
    expect(res.body.data.updateFeature).toEqual({ id: feature, version: 2, name: 'Renamed twice' });
    expect(await updated(feature)).toEqual({ name: 'Renamed twice', version: 2, history: 1, outbox: 1 });
  });

  it('an update that matches no row: the 409 at its field, data withheld, nothing kept', async () => {
    const feature = (await a.client.post('/hr/features', { name: 'Not skipped' })).body.id as string;
    const res = await updateFeature(feature, SKIPPED);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(LOCK_FAILED_AT_UPDATE);
    expect(await updated(feature)).toEqual({ name: 'Not skipped', version: 1, history: 0, outbox: 0 });
  });

  it('an update whose answer reads (its events) that matches no row: the one 409 at its field', async () => {
    const feature = (await a.client.post('/hr/features', { name: 'Read after' })).body.id as string;
    const res = await updateFeature(feature, SKIPPED, 'id events { type } again: events { type }');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(LOCK_FAILED_AT_UPDATE);
    expect(await updated(feature)).toEqual({ name: 'Read after', version: 1, history: 0, outbox: 0 });
  });

  it('a document of two updates, the second matching no row: the 409 at that field, on every run', async () => {
    // A document's second run is compiled (src/graphql/compiled-execution.ts): answered the same.
    for (const run of [1, 2, 3]) {
      const first = (await a.client.post('/hr/features', { name: 'First of two' })).body.id as string;
      const second = (await a.client.post('/hr/features', { name: 'Second of two' })).body.id as string;
      const res = await a.client.graphql(
        `mutation($first: ID!, $second: ID!, $name: String) {
          first: updateFeature(id: $first, input: { name: "Renamed first" }) { id version }
          second: updateFeature(id: $second, input: { name: $name }) { id version }
        }`,
        { first, second, name: SKIPPED },
      );
      expect({ run, status: res.status, body: res.body }).toEqual({
        run,
        status: 200,
        body: {
          errors: [
            { ...LOCK_FAILED_AT_UPDATE.errors[0], locations: [{ line: 3, column: 11 }], path: ['second'] },
          ],
          data: null,
        },
      });
      expect(await updated(first)).toEqual({ name: 'First of two', version: 1, history: 0, outbox: 0 });
    }
  });

  it('a create over REST: 400 naming the field, and nothing kept', async () => {
    const res = await a.client.post('/hr/features', { name: REFUSED, tags: ['x'] });
    expect(res.status).toBe(400);
    expect(body(res)).toEqual({
      title: 'Bad Request',
      status: 400,
      detail: 'name: is not one of the values the field allows',
      errors: [{ field: 'name', reason: 'is not one of the values the field allows' }],
    });
    expect(await kept(REFUSED)).toEqual({ features: 0, history: 0, outbox: 0 });
  });

  it('a create over GraphQL: the error at its field, data withheld, and nothing kept', async () => {
    const res = await a.client.graphql(
      `mutation($input: CreateFeatureInput!) {
        createFeature(input: $input) { id version name events { type } }
      }`,
      { input: { name: REFUSED } },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual(REFUSED_AT_CREATE);
    expect(await kept(REFUSED)).toEqual({ features: 0, history: 0, outbox: 0 });
  });

  it('a create whose answer reads (its history), refused: the one error at its field, nothing kept', async () => {
    const res = await a.client.graphql(
      `mutation($input: CreateFeatureInput!) {
        createFeature(input: $input) { id history { content { type } } again: history { content { type } } }
      }`,
      { input: { name: REFUSED } },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual(REFUSED_AT_CREATE);
    expect(await kept(REFUSED)).toEqual({ features: 0, history: 0, outbox: 0 });
  });

  it('a create refused after another in the same document: the refused one is named, nothing kept', async () => {
    const res = await a.client.graphql(
      `mutation {
        first: createFeature(input: { name: "Kept until the second fails" }) { id }
        second: createFeature(input: { name: "${REFUSED}" }) { id }
      }`,
    );
    expect(res.body.data).toBeNull();
    expect(res.body.errors?.[0]).toEqual({
      message: 'name: is not one of the values the field allows',
      locations: [{ line: 3, column: 9 }],
      path: ['second'],
      extensions: {
        code: 'BAD_REQUEST',
        status: 400,
        errors: [{ field: 'name', reason: 'is not one of the values the field allows' }],
      },
    });
    expect(await kept('Kept until the second fails')).toEqual({ features: 0, history: 0, outbox: 0 });
  });

  it('a create that succeeds is kept with its history entry and event, and answers the version the row has', async () => {
    const res = await a.client.graphql(
      `mutation { createFeature(input: { name: "Versioned" }) { id version } }`,
    );
    const created = res.body.data.createFeature;
    const [row] = await sql<{ version: number }>(
      `select version from feature where tenant_id = ? and id = ?`,
      [a.tenantId, created.id],
    );
    expect(created.version).toBe(row.version);
    expect(await kept('Versioned')).toEqual({ features: 1, history: 1, outbox: 1 });
  });

  it('a delete over REST a record still refers to: 409, and the record stays', async () => {
    const feature = await held();
    const res = await a.client.delete(`/hr/features/delete-list?ids=${feature}`);
    expect(res.status).toBe(409);
    expect(body(res)).toEqual({
      title: 'Conflict',
      status: 409,
      detail: STILL_REFERRED_TO,
    });
    const [row] = await sql<{ n: number }>(`select count(*)::int as n from feature where id = ?`, [feature]);
    expect(row.n).toBe(1);
  });

  it('a delete over GraphQL a record still refers to: the error at its field, data withheld', async () => {
    const feature = await held();
    const res = await a.client.graphql(
      `mutation($id: ID!) {
        deleteFeature(id: $id)
      }`,
      { id: feature },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      errors: [
        {
          message: STILL_REFERRED_TO,
          locations: [{ line: 2, column: 9 }],
          path: ['deleteFeature'],
          extensions: { code: 'CONFLICT', status: 409 },
        },
      ],
      data: null,
    });
    const [row] = await sql<{ n: number }>(
      `select count(*)::int as n from audit_log where entity_id = ? and action = 'DELETE'`,
      [feature],
    );
    expect(row.n).toBe(0);
  });

  it("a new row's version is known without reading it: its column's default, which no trigger changes", async () => {
    const versioned = Object.values(server.orm.getMetadata().getAll()).filter(
      (m) => m.versionProperty && !m.abstract && !m.embeddable,
    );
    expect(versioned.length).toBeGreaterThan(20);
    for (const meta of versioned) {
      const prop = meta.properties[meta.versionProperty];
      const [column] = await sql<{ default: string | null }>(
        `select column_default as "default" from information_schema.columns
          where table_schema = current_schema() and table_name = ? and column_name = ?`,
        [meta.tableName, prop.fieldNames[0]],
      );
      expect({ table: meta.tableName, default: column?.default }).toEqual({
        table: meta.tableName,
        default: prop.defaultRaw,
      });
    }
    // Row triggers that run before an insert or an update (tgtype: 1 row, 2 before, 4 insert,
    // 16 update) could change it: an updated row's version is the one read plus one. (This
    // file's own trigger only skips an update.)
    const before = await sql<{ table: string; name: string }>(
      `select c.relname as "table", t.tgname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
        where not t.tgisinternal and c.relnamespace = current_schema()::regnamespace
          and t.tgtype & 3 = 3 and t.tgtype & 20 <> 0 and c.relname in (?) and t.tgname <> 'probe_skip_update'`,
      [versioned.map((m) => m.tableName)],
    );
    expect(before).toEqual([]);
  });
});
