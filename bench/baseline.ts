import http from 'node:http';
import { createSecretKey, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { Pool, type PoolClient } from 'pg';
import { eventsSql } from '../src/history/history-events-repository';
import { Pipeline, type PipelinedStatement } from '../src/db/orm-bypass/pipeline';
import type { Rows } from '../src/db/rows';

/** A feature's `events`, in the service's own SQL: the latest entries of the history table. */
const EVENTS = eventsSql('Feature', 'f.tenant_id', 'f.id');

/**
 * The physical limit: a bare Node HTTP server with a `pg` pool that runs the statements the
 * service runs for the benchmarked operations (captured from the service and compared by
 * bench/run.ts) and answers the same JSON, with none of Express, GraphQL or the ORM. Its only
 * work beyond the SQL is what any implementation must do: verify the token, check the
 * permission, shape the rows.
 *
 * Two ways of talking to PostgreSQL, chosen by the first path segment:
 *   /rls/...     as the service: BEGIN, set_config(role, tenant) and the user in one round trip;
 *                the operation's statements; COMMIT
 *   /plain/...   no transaction and no role switch: the cost of row-level security is the gap
 * The plain mode needs a connection role that bypasses row-level security (a superuser, as on
 * the default bench server); otherwise its answers are empty and the check in run.ts says so.
 *
 * Run as a child process: `node dist/bench/baseline.js` with DATABASE_URL, JWT_SECRET and PORT
 * (0 = any); it reports its port over IPC.
 */
type Mode = 'rls' | 'plain';
const MODES = new Set<string>(['rls', 'plain']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

interface Caller {
  tenantId: string;
  userId: string;
  email: string;
  permissions: Set<string>;
}

const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DB_POOL_SIZE || 10),
});
// A KeyObject: given a string, jsonwebtoken first tries (and fails) to parse it as a public key
// on every verify, which is a cost of the library's API use, not of verifying a token.
const secret = createSecretKey(Buffer.from(process.env.JWT_SECRET ?? ''));

/** The service's authentication statement: the user with its roles' permission lists. */
const userStatement = (claims: Claims) =>
  `select u.*, coalesce((select jsonb_agg(r.permissions) from tenant_role r
                         where r.tenant_id = u.tenant_id and r.name = any(u.roles)), '[]'::jsonb) as role_permissions
   from app_user u where u.tenant_id = '${claims.tenantId}' and u.id = '${claims.sub}'`;

type Claims = { sub: string; tenantId: string };

/**
 * One request's connection, authenticated, with or without the tenant transaction around its
 * statements. The claims are checked UUIDs (claimsOf), so they may be inlined.
 */
async function withConnection<R>(
  mode: Mode,
  claims: Claims,
  work: (c: PoolClient, caller: Caller) => Promise<R>,
): Promise<R> {
  const c = await pool.connect();
  const settings = `select set_config('role', 'bms_app', true), set_config('app.tenant_id', '${claims.tenantId}', true)`;
  try {
    let userRows: Record<string, any>[];
    if (mode === 'rls') {
      // As the service: BEGIN, the settings and the user in one round trip.
      const results = (await c.query(`BEGIN; ${settings};\n${userStatement(claims)}`)) as unknown as {
        rows: any[];
      }[];
      userRows = results[2].rows;
    } else {
      userRows = (await c.query(userStatement(claims))).rows;
    }
    const caller = callerOf(userRows[0]);
    const result = await work(c, caller);
    if (mode !== 'plain') await c.query('COMMIT');
    return result;
  } catch (err) {
    if (mode !== 'plain') await c.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    c.release();
  }
}

/** The caller as the service makes it: active users only, permissions from the roles. */
function callerOf(user: Record<string, any> | undefined): Caller {
  if (!user || user.status !== 'ACTIVE') throw new HttpError(401, 'the user is unknown or not active');
  const roles: string[] = user.roles;
  const permissions = new Set<string>();
  if (roles.includes('SUPER_ADMIN')) permissions.add('*');
  for (const role of user.role_permissions as Record<string, string[]>[])
    for (const list of Object.values(role)) for (const p of list) permissions.add(p);
  return { tenantId: user.tenant_id, userId: user.id, email: user.email, permissions };
}

function claimsOf(header: string | undefined): { sub: string; tenantId: string } {
  const token = /^Bearer\s+(\S+)$/.exec(header ?? '')?.[1];
  if (!token) throw new HttpError(401, 'no credential');
  try {
    const claims = jwt.verify(token, secret, { algorithms: ['HS256'] }) as { sub: string; tenantId: string };
    if (!UUID.test(claims.sub ?? '') || !UUID.test(claims.tenantId ?? '')) throw new Error('claims');
    return claims;
  } catch {
    throw new HttpError(401, 'invalid credential');
  }
}

function demand(caller: Caller, permission: string): void {
  if (!caller.permissions.has('*') && !caller.permissions.has(permission))
    throw new HttpError(403, `${permission} is required`);
}

interface EventJson {
  id: string;
  type: string;
  date: string;
  authorId: string | null;
  description: string | null;
}

const percentDone = (done: number, total: number) =>
  total === 0 ? 0 : Math.round((done / total) * 10_000) / 100;

/** A feature row as the REST response shows it, fields in the order of the generated selection. */
function featureJson(
  row: Record<string, any>,
  epics: Map<string, Record<string, any>>,
  tallies: Map<string, Record<string, number>>,
): Record<string, any> {
  const epic = row.epic_id ? epics.get(row.epic_id) : undefined;
  const tally = tallies.get(row.id) ?? {};
  const taskCount = Object.values(tally).reduce((a, b) => a + b, 0);
  const done = tally.DONE ?? 0;
  return {
    ...storedJson(row),
    created: row.created?.toISOString() ?? null,
    updated: row.updated?.toISOString() ?? null,
    events: (row.events as EventJson[]).map((e) => ({
      id: e.id,
      type: e.type,
      date: e.date,
      authorId: e.authorId,
      description: e.description,
    })),
    epic: epic ? { color: epic.color, id: epic.id, name: epic.name } : null,
    taskCount,
    completedTaskCount: done,
    progress: percentDone(done, taskCount),
  };
}

/** The derived fields of a set of features: task tallies, then epics, as the service's loaders run them. */
async function featuresJson(c: PoolClient, tenantId: string, rows: Record<string, any>[]) {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const tallyRows = await c.query(
    `select e.feature_id as k, e.status as v, count(*)::int as n from task as e
     where e.feature_id = any($1) and e.tenant_id = $2 group by e.feature_id, e.status`,
    [ids, tenantId],
  );
  const tallies = new Map<string, Record<string, number>>();
  for (const t of tallyRows.rows) {
    if (!tallies.has(t.k)) tallies.set(t.k, {});
    tallies.get(t.k)![t.v] = t.n;
  }
  const epicIds = [...new Set(rows.map((r) => r.epic_id).filter(Boolean))];
  const epics = new Map<string, Record<string, any>>();
  if (epicIds.length > 0) {
    const found = await c.query('select * from epic where tenant_id = $1 and id = any($2)', [
      tenantId,
      epicIds,
    ]);
    for (const e of found.rows) epics.set(e.id, e);
  }
  return rows.map((r) => featureJson(r, epics, tallies));
}

async function findFeature(mode: Mode, claims: { sub: string; tenantId: string }, id: string) {
  return withConnection(mode, claims, async (c, caller) => {
    demand(caller, 'READ_FEATURES');
    if (!UUID.test(id)) throw new HttpError(404, `no record at /hr/features/find/${id}`);
    const { rows } = await c.query(
      `select f.*, (${EVENTS}) as events from feature f where f.tenant_id = $1 and f.id = $2 limit 1`,
      [caller.tenantId, id],
    );
    if (rows.length === 0) throw new HttpError(404, `no record at /hr/features/find/${id}`);
    return (await featuresJson(c, caller.tenantId, rows))[0];
  });
}

const STATUSES = new Set(['BACKLOG', 'READY', 'IN_PROGRESS', 'DONE']);

/** Only the search the benchmark sends: `filters=status:eq:X&sort=name,asc|desc&size=N&page=P`. */
async function searchFeatures(mode: Mode, claims: { sub: string; tenantId: string }, query: URLSearchParams) {
  const [field, op, status] = (query.get('filters') ?? '').split(':');
  const [sortField, dir = 'asc'] = (query.get('sort') ?? '').split(',');
  const size = Number(query.get('size') ?? 20);
  const page = Number(query.get('page') ?? 0);
  if (field !== 'status' || op !== 'eq' || !STATUSES.has(status) || sortField !== 'name')
    throw new HttpError(400, 'the baseline serves only filters=status:eq:X&sort=name,asc');
  if (!Number.isInteger(size) || size < 1 || size > 1000 || !Number.isInteger(page) || page < 0)
    throw new HttpError(400, 'bad paging');
  const direction = dir === 'desc' ? 'desc' : 'asc';
  return withConnection(mode, claims, async (c, caller) => {
    demand(caller, 'READ_FEATURES');
    // The service's statement: the count lateral-joined to the page, one round trip.
    const { rows: joined } = await c.query(
      `select c.count as "__total", p.* from
         (select count(*) as count from feature where tenant_id = $1 and status = $2) as c
         left join lateral (select f.*, (${EVENTS}) as events from feature f where f.tenant_id = $1
           and f.status = $2 order by f.name ${direction}, f.created asc, f.id asc limit $3 offset $4) as p on true`,
      [caller.tenantId, status, size, page * size],
    );
    const total = Number(joined[0]?.__total ?? 0);
    const rows = joined.filter((r) => r.id !== null);
    const content = await featuresJson(c, caller.tenantId, rows);
    const totalPages = Math.ceil(total / size);
    const sort = { empty: false, sorted: true, unsorted: false };
    return {
      content,
      empty: content.length === 0,
      first: page === 0,
      last: page >= totalPages - 1,
      number: page,
      numberOfElements: content.length,
      size,
      totalElements: total,
      totalPages,
      sort,
      pageable: { offset: page * size, pageNumber: page, pageSize: size, paged: true, unpaged: false, sort },
    };
  });
}

/**
 * The writes, as little as the service's contract allows: each writes what the service writes
 * (the record; its history entry with the changed fields; its outbox event with the record as
 * REST shows it; for a deletion its audit row) in the service's two round trips, through the
 * service's own pipeline (src/db/orm-bypass/pipeline.ts): the transaction's start, the caller
 * and the write's reads in the first; the writes and COMMIT in the second. In `plain` mode the
 * same without BEGIN, settings and COMMIT (each round trip is then its own implicit
 * transaction, the writes one).
 */
const USER_BY_ID = `select u.*, coalesce((select jsonb_agg(r.permissions) from tenant_role r
                         where r.tenant_id = u.tenant_id and r.name = any(u.roles)), '[]'::jsonb) as role_permissions
   from app_user u where u.tenant_id = $1 and u.id = $2`;
const SETTINGS = "select set_config('role', 'bms_app', true), set_config('app.tenant_id', $1, true)";
const FEATURE_BY_ID = 'select * from feature where tenant_id = $1 and id = $2';

/** Statements in one round trip, each prepared once per connection under its name. */
async function pipelined(c: PoolClient, statements: PipelinedStatement[]): Promise<Rows[]> {
  const pipeline = new Pipeline(statements, c as unknown as ConstructorParameters<typeof Pipeline>[1]);
  (c.query as (q: unknown) => unknown)(pipeline);
  const outcomes = await pipeline.done;
  const failed = outcomes.find((o): o is { error: Error } => 'error' in o);
  if (failed) throw failed.error;
  return outcomes.map((o) => (o as { rows: Rows }).rows);
}

const named = (name: string, text: string, values: unknown[]): PipelinedStatement => ({
  name: `floor-${name}`,
  text,
  values,
});

/**
 * A write: `reads` go with the caller in the first round trip; `write` is given the caller and
 * their rows and returns the statements of the second and the answer.
 */
async function writeWith<R>(
  mode: Mode,
  claims: Claims,
  reads: PipelinedStatement[],
  write: (caller: Caller, rows: Rows[]) => { statements: PipelinedStatement[]; answer: R },
): Promise<R> {
  const c = await pool.connect();
  const rls = mode === 'rls';
  let failed = false;
  const start: PipelinedStatement[] = rls
    ? [{ text: 'begin' }, named('settings', SETTINGS, [claims.tenantId])]
    : [];
  try {
    const first = await pipelined(c, [
      ...start,
      named('user', USER_BY_ID, [claims.tenantId, claims.sub]),
      ...reads,
    ]);
    const [user, ...read] = first.slice(start.length);
    const { statements, answer } = write(callerOf(user[0]), read);
    await pipelined(c, rls ? [...statements, { text: 'commit' }] : statements);
    return answer;
  } catch (err) {
    failed = true;
    if (rls) await c.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    // After a failure a statement may have been left half prepared: the connection goes.
    c.release(failed);
  }
}

/** `rows` of `columns` as one insert, its placeholders from $1 (a statement per table and count). */
function insertRows(table: string, columns: string[], rows: unknown[][]): PipelinedStatement {
  const placeholders = rows.map(
    (_, r) => `(${columns.map((__, k) => `$${r * columns.length + k + 1}`).join(', ')})`,
  );
  return named(
    `${table}-${rows.length}`,
    `insert into ${table} (${columns.join(', ')}) values ${placeholders.join(', ')}`,
    rows.flat(),
  );
}

/** A table's columns, written as SQL lists them. */
const columnList = (list: string) => list.split(', ');

const HISTORY_COLUMNS = columnList(
  'tenant_id, id, record_type, record_id, type, seq, occurred_at, actor_user_id, actor_email, description, changes',
);
const OUTBOX_COLUMNS = columnList(
  'tenant_id, id, type, resource_type, resource_id, occurred_at, actor, data',
);
const AUDIT_COLUMNS = columnList(
  'tenant_id, id, created, created_by, updated, updated_by, entity, entity_id, action, data',
);

let lastSeq = 0;
/** The history's order within a record: microseconds, strictly rising in this process. */
const nextSeq = (at: Date) => (lastSeq = Math.max(at.getTime() * 1000, lastSeq + 1));

/** A feature's stored fields as REST shows them (an event's `data`), from its row. */
function storedJson(row: Record<string, any>): Record<string, any> {
  return {
    tenantId: row.tenant_id,
    id: row.id,
    created: row.created,
    createdBy: row.created_by,
    updated: row.updated,
    updatedBy: row.updated_by,
    name: row.name,
    description: row.description,
    epicId: row.epic_id,
    priority: row.priority,
    status: row.status,
    tags: row.tags,
    estimatedPoints: row.estimated_points,
  };
}

/** The history entry and outbox event of a change to one feature, as rows of their inserts. */
function changeRows(
  caller: Caller,
  at: Date,
  type: 'CREATE' | 'UPDATE' | 'DELETE',
  row: Record<string, any>,
  changes: Record<string, { old: unknown; new: unknown }>,
) {
  const verb = { CREATE: 'Created', UPDATE: 'Updated', DELETE: 'Deleted' }[type];
  const entry = {
    id: randomUUID(),
    type,
    description: `${verb} Feature`,
  };
  const history = [
    caller.tenantId,
    entry.id,
    'Feature',
    row.id,
    type,
    nextSeq(at),
    at,
    caller.userId,
    caller.email,
    entry.description,
    JSON.stringify(changes),
  ];
  const event = { CREATE: 'feature.created', UPDATE: 'feature.updated', DELETE: 'feature.deleted' }[type];
  const actor = JSON.stringify({ userId: caller.userId, email: caller.email });
  const outbox = [
    caller.tenantId,
    randomUUID(),
    event,
    'Feature',
    row.id,
    at,
    actor,
    JSON.stringify(storedJson(row)),
  ];
  return { history, outbox, entry };
}

/** Every field of `after` against `before` (none for a creation), as the history shows changes. */
function changesOf(before: Record<string, unknown> | undefined, after: Record<string, unknown>) {
  const changes: Record<string, { old: unknown; new: unknown }> = {};
  for (const [field, value] of Object.entries(after)) {
    const old = before?.[field] ?? null;
    if (JSON.stringify(old) !== JSON.stringify(value ?? null)) changes[field] = { old, new: value ?? null };
  }
  return changes;
}

const FEATURE_COLUMNS = columnList(
  'tenant_id, id, name, description, epic_id, priority, status, tags, estimated_points, created, created_by, updated, updated_by',
);

async function createFeature(mode: Mode, claims: Claims, body: Record<string, any>) {
  const name = typeof body.name === 'string' ? body.name : '';
  if (name.length < 1 || name.length > 200) throw new HttpError(400, 'name: 1 to 200 characters');
  if (body.epicId !== undefined && body.epicId !== null && !UUID.test(body.epicId))
    throw new HttpError(400, 'epicId must be a UUID');
  const epicRead = body.epicId
    ? [named('epic', 'select * from epic where tenant_id = $1 and id = $2', [claims.tenantId, body.epicId])]
    : [];
  return writeWith(mode, claims, epicRead, (caller, [epic]) => {
    demand(caller, 'CREATE_FEATURES');
    if (body.epicId && epic.length === 0) throw new HttpError(400, `epicId: there is no Epic ${body.epicId}`);
    const now = new Date();
    const row: Record<string, any> = {
      tenant_id: caller.tenantId,
      id: randomUUID(),
      name,
      description: body.description ?? null,
      epic_id: body.epicId ?? null,
      priority: body.priority ?? null,
      status: body.status ?? 'BACKLOG',
      tags: body.tags ?? [],
      estimated_points: body.estimatedPoints ?? null,
      created: now,
      created_by: caller.email,
      updated: now,
      updated_by: caller.email,
    };
    const { history, outbox, entry } = changeRows(
      caller,
      now,
      'CREATE',
      row,
      changesOf(undefined, storedJson(row)),
    );
    row.events = [
      {
        id: entry.id,
        type: 'CREATE',
        date: now.toISOString(),
        authorId: caller.userId,
        description: entry.description,
      },
    ];
    const epics = new Map((epic ?? []).map((e) => [e.id as string, e]));
    return {
      statements: [
        insertRows('record_history', HISTORY_COLUMNS, [history]),
        insertRows('outbox_event', OUTBOX_COLUMNS, [outbox]),
        insertRows('feature', FEATURE_COLUMNS, [FEATURE_COLUMNS.map((column) => row[column])]),
      ],
      answer: featureJson(row, epics, new Map()),
    };
  });
}

/** An update of the fields given (the benchmark's: name and priority), its version checked. */
async function updateFeature(mode: Mode, claims: Claims, id: string, body: Record<string, any>) {
  if (!UUID.test(id)) throw new HttpError(404, `no feature ${id}`);
  const name = body.name;
  if (typeof name !== 'string' || name.length < 1 || name.length > 200)
    throw new HttpError(400, 'name: 1 to 200 characters');
  const priority = body.priority ?? null;
  return writeWith(
    mode,
    claims,
    [named('feature', FEATURE_BY_ID, [claims.tenantId, id])],
    (caller, [found]) => {
      demand(caller, 'UPDATE_FEATURES');
      const before = found[0] as Record<string, any> | undefined;
      if (!before) throw new HttpError(404, `no feature ${id}`);
      const now = new Date();
      const after = {
        ...before,
        name,
        priority,
        updated: now,
        updated_by: caller.email,
        version: before.version + 1,
      };
      const { history, outbox } = changeRows(
        caller,
        now,
        'UPDATE',
        after,
        changesOf(storedJson(before), storedJson(after)),
      );
      // As the service's: an update that matches no row (changed since it was read) divides by
      // zero, so COMMIT keeps none of the writes.
      const update = named(
        'update',
        `with u as (update feature set name = $1, priority = $2, updated = $3, updated_by = $4, version = version + 1
         where tenant_id = $5 and id = $6 and version = $7 returning version) select 1 / count(*) as one from u`,
        [name, priority, now, caller.email, caller.tenantId, id, before.version],
      );
      return {
        statements: [
          insertRows('record_history', HISTORY_COLUMNS, [history]),
          insertRows('outbox_event', OUTBOX_COLUMNS, [outbox]),
          update,
        ],
        answer: { ...storedJson(after), version: after.version },
      };
    },
  );
}

/**
 * delete-list: the features named that exist, each with its history entry, event and audit row.
 * The tasks linking to them are read, as the service reads them; their `feature_id` is cleared
 * by the foreign key's `on delete set null`, without the history entries and events the service
 * writes for them (the benchmark's deletes take features without tasks).
 */
async function deleteFeatures(mode: Mode, claims: Claims, ids: string[]) {
  if (ids.length === 0 || ids.length > 100 || !ids.every((id) => UUID.test(id)))
    throw new HttpError(400, 'ids: 1 to 100 UUIDs');
  const reads = [
    named('doomed', 'select * from feature where tenant_id = $1 and id = any($2::uuid[])', [
      claims.tenantId,
      ids,
    ]),
    named('linked', 'select * from task where tenant_id = $1 and feature_id = any($2::uuid[])', [
      claims.tenantId,
      ids,
    ]),
  ];
  return writeWith(mode, claims, reads, (caller, [doomed]) => {
    demand(caller, 'DELETE_FEATURES');
    if (doomed.length === 0) return { statements: [], answer: 0 };
    const now = new Date();
    const changes = doomed.map((row) =>
      changeRows(caller, now, 'DELETE', row, changesOf(storedJson(row), {})),
    );
    const audit = doomed.map((row) => [
      caller.tenantId,
      randomUUID(),
      now,
      caller.email,
      now,
      caller.email,
      'Feature',
      row.id,
      'DELETE',
      JSON.stringify(storedJson(row)),
    ]);
    return {
      statements: [
        named(
          `delete-${doomed.length}`,
          'delete from feature where tenant_id = $1 and id = any($2::uuid[])',
          [caller.tenantId, doomed.map((row) => row.id)],
        ),
        insertRows(
          'record_history',
          HISTORY_COLUMNS,
          changes.map((c) => c.history),
        ),
        insertRows(
          'outbox_event',
          OUTBOX_COLUMNS,
          changes.map((c) => c.outbox),
        ),
        insertRows('audit_log', AUDIT_COLUMNS, audit),
      ],
      answer: doomed.length,
    };
  });
}

function readBody(req: http.IncomingMessage): Promise<Record<string, any>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
      } catch {
        reject(new HttpError(400, 'malformed JSON'));
      }
    });
    req.on('error', reject);
  });
}

function send(res: http.ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://baseline');
  const [, mode, ...rest] = url.pathname.split('/');
  const path = `/${rest.join('/')}`;
  if (!MODES.has(mode)) throw new HttpError(404, 'no such mode');
  const claims = claimsOf(req.headers.authorization);
  const m = mode as Mode;
  if (req.method === 'GET' && path.startsWith('/hr/features/find/'))
    return send(res, 200, await findFeature(m, claims, path.slice('/hr/features/find/'.length)));
  if (req.method === 'GET' && path === '/hr/features/dynamic-search')
    return send(res, 200, await searchFeatures(m, claims, url.searchParams));
  if (req.method === 'POST' && path === '/hr/features') {
    const created = await createFeature(m, claims, await readBody(req));
    res.setHeader('location', `/api/v1/hr/features/find/${created.id}`);
    return send(res, 201, created);
  }
  if (req.method === 'PATCH' && path.startsWith('/hr/features/'))
    return send(
      res,
      200,
      await updateFeature(m, claims, path.slice('/hr/features/'.length), await readBody(req)),
    );
  if (req.method === 'DELETE' && path === '/hr/features/delete-list')
    return send(res, 200, await deleteFeatures(m, claims, (url.searchParams.get('ids') ?? '').split(',')));
  throw new HttpError(404, `no operation ${req.method} ${path}`);
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((err) => {
    const status = err instanceof HttpError ? err.status : 500;
    if (status === 500) console.error(err);
    send(res, status, { status, detail: err instanceof Error ? err.message : String(err) });
  });
});

server.listen(Number(process.env.PORT || 0), '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  if (process.send) process.send({ port });
  else console.log(`baseline listening on ${port}`);
});

process.on('SIGTERM', () => {
  server.close(() => void pool.end().then(() => process.exit(0)));
});
