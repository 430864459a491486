import { jsonBytes } from '../../src/http/json-bytes';

/** jsonBytes writes the bytes of JSON.stringify's text, whichever way it builds them. */
describe('jsonBytes', () => {
  const same = (value: unknown, trailer = '') =>
    expect(jsonBytes(value, trailer).toString('utf8')).toBe((JSON.stringify(value) ?? '') + trailer);

  const row = (i: number) => ({
    id: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
    name: `Feature ${i} · ünïcödé 🚀 "quoted" \\ back\nline`,
    created: new Date(Date.UTC(2026, 10, i % 28)),
    epic: i % 3 ? { id: `e${i}`, name: null } : null,
    tasks: { open: i, done: undefined },
    events: Array.from({ length: i % 40 }, (_, k) => ({ type: 'CREATED', k })),
  });
  const rows = (n: number) => Array.from({ length: n }, (_, i) => row(i));

  it('answers small values and short lists whole, as JSON.stringify does', () => {
    for (const value of [
      null,
      0,
      -1.5,
      true,
      'text',
      '',
      [],
      {},
      rows(1)[0],
      rows(16),
      { content: rows(16) },
    ])
      same(value);
    same(undefined);
    same(() => 1);
  });

  it('writes long lists, at the top and within plain objects, element by element with the same text', () => {
    same(rows(17));
    same(rows(200));
    same({ content: rows(200), totalElements: 2450, pageNumber: 0, pageSize: 200 });
    same(
      {
        errors: undefined,
        data: { result: { content: rows(200), totalElements: 200 } },
        extensions: undefined,
      },
      '\n',
    );
    same({ a: { b: { c: { list: rows(40) } } } });
  });

  it('leaves out what JSON.stringify leaves out, and writes null where it does', () => {
    const list: unknown[] = rows(20);
    list.push(undefined, () => 1, Symbol('s'), null, Number.NaN, Number.POSITIVE_INFINITY);
    same(list);
    same({ skipped: undefined, fn: () => 1, sym: Symbol('s'), [Symbol('key')]: 1, list, after: 1 });
    same({ first: undefined, list });
  });

  it('keeps objects and lists that serialise themselves, null-prototype objects and inherited keys as JSON.stringify does', () => {
    const custom = { toJSON: () => ({ replaced: true }), list: rows(30) };
    same(custom);
    same({ custom });
    const listWithToJson = Object.assign(rows(30), { toJSON: () => 'short' });
    same({ listWithToJson });
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { content: rows(30), n: 1 });
    same(bare);
    const inherited = Object.assign(Object.create({ hidden: rows(30) }) as Record<string, unknown>, {
      own: 1,
    });
    same(inherited);
    same({ date: new Date(0), map: new Map([[1, 2]]), list: rows(30) });
  });

  it('encodes every character as UTF-8, lone surrogates escaped as JSON.stringify escapes them', () => {
    same(Array.from({ length: 50 }, (_, i) => `${'é'.repeat(i)}\ud800${'😀'.repeat(i)}\u2028`));
  });

  it('throws where JSON.stringify throws', () => {
    const big = rows(30) as unknown[];
    big.push({ n: BigInt(1) });
    expect(() => jsonBytes({ big })).toThrow(TypeError);
    const cyclic: Record<string, unknown> = { list: rows(30) };
    (cyclic.list as unknown[]).push(cyclic);
    expect(() => jsonBytes(cyclic)).toThrow(TypeError);
  });
});
