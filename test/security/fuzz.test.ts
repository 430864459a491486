import { getNamedType, isInputObjectType, isListType, isNonNullType, type GraphQLInputType } from 'graphql';
import { startServer, type TestServer, type TestTenant } from '../support/server';
import { sampleRequests, WITHDRAWS_CALLER, type SampleRequest } from '../support/sample-requests';

/**
 * Bad input never breaks anything: every REST operation gets mutated paths, query strings and
 * bodies (wrong types, huge and unicode strings, SQL and JSON metacharacters, nested arrays, NUL
 * bytes, invalid ids and dates). No answer may be a 5xx; every error has the documented body; a
 * control record is unchanged afterwards.
 */
const NASTY: unknown[] = [
  "' OR '1'='1' --",
  '"; drop table concept; --',
  '\u0000nul\u0000',
  'x'.repeat(20_000),
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ☃ \u202e',
  '{"$gt": ""}',
  '../../etc/passwd',
  'not-a-uuid',
  '2026-13-45T99:99:99Z',
  -1,
  1e308,
  3.7,
  true,
  null,
  [],
  [[[['deep']]]],
  { $ne: null },
  { nested: { deeper: [1, { x: '\u0000' }] } },
];

const PATH_VALUES = [
  "' OR 1=1 --",
  '%00',
  'not-a-uuid',
  '𝔘𝔫𝔦',
  'x'.repeat(3000),
  '..%2F..%2Fetc',
  '2026-13-45',
  '-1',
  '%7B%7D',
];
const QUERY_VALUES = [
  "'; select pg_sleep(1); --",
  '%00',
  '𝔘𝔫𝔦',
  'x'.repeat(5000),
  'a:b:c:d',
  'name:in:',
  ':eq:',
  'name,sideways',
  '-5',
  '99999999999999999999',
  '2026-02-30',
];

/** Input field names of an argument type, for targeted body mutations. */
function fieldsOf(type: GraphQLInputType): string[] {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return [];
  const named = getNamedType(inner);
  return isInputObjectType(named) ? Object.keys(named.getFields()) : [];
}

function mutations(req: SampleRequest): { method: string; path: string; body?: unknown; raw?: string }[] {
  const out: { method: string; path: string; body?: unknown; raw?: string }[] = [];
  const [pathOnly, qs] = req.path.split('?');
  const segments = pathOnly.split('/');
  const paramIdx = req.route.path
    .split('/')
    .map((s, i) => (s.startsWith('{') ? i : -1))
    .filter((i) => i >= 0);
  for (const v of PATH_VALUES) {
    for (const i of paramIdx) {
      const s = [...segments];
      s[i] = v;
      out.push({ method: req.method, path: s.join('/') + (qs ? `?${qs}` : ''), body: req.body });
    }
  }
  const queryNames = [
    'ids',
    'page',
    'size',
    'pageNumber',
    'pageSize',
    'sortBy',
    'direction',
    'search',
    'filters',
    'sort',
    'start',
    'end',
    'category',
    'currency',
    ...req.args.map((a) => a.name),
  ];
  for (const [i, v] of QUERY_VALUES.entries()) {
    const name = queryNames[i % queryNames.length];
    out.push({ method: req.method, path: `${pathOnly}?${name}=${encodeURIComponent(v)}&${name}[nested]=1` });
    out.push({
      method: req.method,
      path: `${pathOnly}?${qs ?? ''}&filters=${encodeURIComponent(v)}&sort=${encodeURIComponent(v)}&ids=${encodeURIComponent(v)}`,
    });
  }
  if (req.body !== undefined || ['POST', 'PUT', 'PATCH'].includes(req.method)) {
    for (const v of NASTY) out.push({ method: req.method, path: req.path, body: v });
    const bodyArg = req.args.find((a) => req.route.args?.[a.name]?.from === 'body');
    const fields = bodyArg ? fieldsOf(bodyArg.type) : [];
    for (const [i, f] of fields.entries()) {
      for (const v of [
        NASTY[i % NASTY.length],
        NASTY[(i + 5) % NASTY.length],
        NASTY[(i + 11) % NASTY.length],
      ]) {
        out.push({ method: req.method, path: req.path, body: { ...(req.body as object), [f]: v } });
      }
    }
    out.push({ method: req.method, path: req.path, raw: '{"a":' + '['.repeat(5000) });
    out.push({ method: req.method, path: req.path, raw: '{"name":"\\ud800"}' });
  }
  return out;
}

describe('fuzzing every REST operation', () => {
  let server: TestServer;
  let a: TestTenant;
  let control: any;

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Fuzz');
    control = (await a.client.post('/concepts', { name: 'Control', buildingType: 'ROW' })).body;
  });
  afterAll(() => server.close());

  it('never answers 5xx, always answers errors in the documented body, and leaves data alone', async () => {
    const failures: string[] = [];
    // Signing the fuzzing admin out would refuse the control's read below (test/auth covers it).
    const all = sampleRequests(server.app.schema)
      .filter((r) => !WITHDRAWS_CALLER.has(r.route.field))
      .flatMap(mutations);
    const sent = all.length;
    // A few requests in flight at once, as clients send them: the service's answers are checked
    // one by one all the same, and the run no longer waits on each round trip in turn.
    let next = 0;
    const send = async () => {
      while (next < all.length) {
        const m = all[next++]!;
        const res = m.raw
          ? await a.client.request(m.method, m.path, m.raw, { 'content-type': 'application/json' })
          : await a.client.request(m.method, m.path, m.body);
        const label = `${m.method} ${m.path.slice(0, 120)} ${JSON.stringify(m.body ?? m.raw ?? '').slice(0, 80)}`;
        if (res.status >= 500) failures.push(`${label} -> ${res.status} ${res.text.slice(0, 200)}`);
        else if (res.status >= 400) {
          const b = res.body;
          if (
            !b ||
            typeof b.title !== 'string' ||
            typeof b.detail !== 'string' ||
            typeof b.time !== 'string'
          ) {
            failures.push(`${label} -> ${res.status} without the error body: ${res.text.slice(0, 200)}`);
          }
          if (/\bat \S+\.(js|ts):\d+|select .* from|insert into/i.test(res.text))
            failures.push(`${label} -> leaks internals: ${res.text.slice(0, 200)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: 4 }, send));
    expect(failures.slice(0, 30)).toEqual([]);
    expect(sent).toBeGreaterThan(500);
    expect((await a.client.get(`/concepts/find/${control.id}`)).body).toEqual(control);
  }, 600_000);
});
