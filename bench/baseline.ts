import http from 'node:http';
import { createSecretKey, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { Pool, type PoolClient } from 'pg';
import { eventsSql } from '../src/history/events-sql';

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
) {
  const epic = row.epic_id ? epics.get(row.epic_id) : undefined;
  const tally = tallies.get(row.id) ?? {};
  const taskCount = Object.values(tally).reduce((a, b) => a + b, 0);
  const done = tally.DONE ?? 0;
  return {
    tenantId: row.tenant_id,
    id: row.id,
    created: row.created?.toISOString() ?? null,
    createdBy: row.created_by,
    updated: row.updated?.toISOString() ?? null,
    updatedBy: row.updated_by,
    events: (row.events as EventJson[]).map((e) => ({
      id: e.id,
      type: e.type,
      date: e.date,
      authorId: e.authorId,
      description: e.description,
    })),
    name: row.name,
    description: row.description,
    epicId: row.epic_id,
    priority: row.priority,
    status: row.status,
    tags: row.tags,
    estimatedPoints: row.estimated_points,
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

async function createFeature(
  mode: Mode,
  claims: { sub: string; tenantId: string },
  body: Record<string, any>,
) {
  const name = typeof body.name === 'string' ? body.name : '';
  if (name.length < 1 || name.length > 200) throw new HttpError(400, 'name: 1 to 200 characters');
  if (body.epicId !== undefined && body.epicId !== null && !UUID.test(body.epicId))
    throw new HttpError(400, 'epicId must be a UUID');
  return withConnection(mode, claims, async (c, caller) => {
    demand(caller, 'CREATE_FEATURES');
    if (body.epicId) {
      const epic = await c.query('select * from epic where tenant_id = $1 and id = $2 limit 1', [
        caller.tenantId,
        body.epicId,
      ]);
      if (epic.rows.length === 0) throw new HttpError(400, `epicId: there is no Epic ${body.epicId}`);
    }
    const now = new Date();
    // The record and its CREATE entry in the history table, as the service writes them.
    const { rows } = await c.query(
      `with f as (
         insert into feature (tenant_id, id, name, description, epic_id, priority, status, tags,
           estimated_points, created, created_by, updated, updated_by)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $10, $11) returning *),
       h as (
         insert into record_history (tenant_id, id, record_type, record_id, type, seq, occurred_at,
           actor_user_id, actor_email, description)
         select f.tenant_id, $12, 'Feature', f.id, 'CREATE', $13, f.created, $14, f.created_by, 'Created Feature'
         from f returning id, type, occurred_at, actor_user_id, description)
       select f.*, (select jsonb_agg(jsonb_build_object('id', h.id, 'type', h.type,
           'date', to_char(h.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'authorId', h.actor_user_id, 'description', h.description)) from h) as events
       from f`,
      [
        caller.tenantId,
        randomUUID(),
        name,
        body.description ?? null,
        body.epicId ?? null,
        body.priority ?? null,
        body.status ?? 'BACKLOG',
        body.tags ?? [],
        body.estimatedPoints ?? null,
        now,
        caller.email,
        randomUUID(),
        now.getTime() * 1000,
        caller.userId,
      ],
    );
    return (await featuresJson(c, caller.tenantId, rows))[0];
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
