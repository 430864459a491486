import 'reflect-metadata';
import type { MikroORM } from '@mikro-orm/core';
import { classify } from '../../src/error-mapping';
import { DATABASE_REFUSALS, unmappedRefusalCount } from '../../src/db/refusals';
import { openOrm } from '../../src/db/orm';
import { REQUEST, type ClientError } from '../../src/errors';
import { workerDatabaseUrl } from '../support/database';
import { startServer } from '../support/server';
import { ormComposition } from '../../src/orm-composition';

/**
 * Each refusal of the database, by SQLSTATE, provoked on the test database (PostgreSQL or the
 * embedded one) through MikroORM as the service meets it, and what a client is answered: a 4xx
 * naming the field when the database names one, the conflict otherwise. The table of refusals
 * (src/db/refusals.ts) is published in docs/conventions.md; every entry is provoked here.
 */

const raise = (code: string) => `do $$ begin raise exception 'probe' using errcode = '${code}'; end $$`;

/** SQLSTATE, a statement the database refuses with it, and the answer expected. */
const PROBES: [string, string, Partial<ClientError>][] = [
  [
    '23502',
    `insert into probe (id, name) values (gen_random_uuid(), null)`,
    { status: 400, errors: [{ field: 'name', reason: 'must not be null' }] },
  ],
  [
    '23505',
    `insert into probe (id, name) values (gen_random_uuid(), 'taken')`,
    { status: 409, errors: [{ field: 'name', reason: 'a record with the same value already exists' }] },
  ],
  [
    '23503',
    `insert into probe (id, name, parent_id) values (gen_random_uuid(), 'orphan', gen_random_uuid())`,
    { status: 409, errors: [{ field: 'parentId', reason: 'refers to a record that does not exist' }] },
  ],
  [
    '23514',
    `insert into probe (id, name, building_type) values (gen_random_uuid(), 'x', 'CASTLE')`,
    { status: 400, errors: [{ field: 'buildingType', reason: 'is not one of the values the field allows' }] },
  ],
  ['23001', raise('23001'), { status: 409 }],
  ['23P01', raise('23P01'), { status: 409 }],
  [
    '22001',
    `insert into probe (id, name, code) values (gen_random_uuid(), 'x', 'too long')`,
    { status: 400, detail: 'a value in the request is longer than the field allows' },
  ],
  [
    '22003',
    `insert into probe (id, name, amount) values (gen_random_uuid(), 'x', 123456)`,
    { status: 400, detail: 'a value in the request is out of the range the field holds' },
  ],
  ['22007', `select 'not a date'::timestamptz`, { status: 400 }],
  ['22008', `select '2026-13-45'::date`, { status: 400 }],
  ['22P02', `select 'not-a-uuid'::uuid`, { status: 400 }],
  ['22021', raise('22021'), { status: 400 }],
  ['22P05', raise('22P05'), { status: 400 }],
  ['22012', `select 1 / 0`, { status: 400 }],
  ['2201B', `select 'a' ~ '('`, { status: 400 }],
  ['22023', raise('22023'), { status: 400 }],
  ['54000', raise('54000'), { status: 400 }],
  ['40001', raise('40001'), { status: 409, detail: 'the record is being changed concurrently; retry' }],
  ['40P01', raise('40P01'), { status: 409, detail: 'the record is being changed concurrently; retry' }],
  ['55P03', raise('55P03'), { status: 409, detail: 'the record is being changed concurrently; retry' }],
  // The embedded database has no statement timeout to provoke it with.
  ['57014', raise('57014'), { status: 503 }],
];

/** Refusals no entry names: the class decides (22: malformed data, 23: a rule of the record). */
const CLASS_PROBES: [string, number][] = [
  ['22026', 400],
  ['23000', 400],
];

describe('database refusals and what a client is answered', () => {
  let orm: MikroORM;

  beforeAll(async () => {
    orm = await openOrm({ composition: ormComposition, clientUrl: await workerDatabaseUrl(), poolMax: 1 });
  });
  afterAll(() => orm.close(true));

  /** The error a statement fails with, as MikroORM hands it to the service, classified. */
  async function refusal(sql: string): Promise<{ code: string; answer: ClientError; error: unknown }> {
    const em = orm.em.fork();
    let caught: unknown;
    await em
      .transactional(async (tx) => {
        const run = (text: string) => tx.getConnection().execute(text, [], 'run', tx.getTransactionContext());
        await run(`create temp table probe_parent (id uuid primary key) on commit drop`);
        await run(
          `create temp table probe (id uuid primary key, name text not null unique, code varchar(3),
             amount numeric(4,2), building_type text check (building_type in ('ROW', 'DETACHED')),
             parent_id uuid references probe_parent (id)) on commit drop`,
        );
        await run(`insert into probe (id, name) values (gen_random_uuid(), 'taken')`);
        try {
          await run(sql);
        } catch (err) {
          caught = err;
        }
        throw new Error('roll back');
      })
      .catch(() => undefined);
    if (!caught) throw new Error(`no refusal: ${sql}`);
    return { code: String((caught as { code?: string }).code), answer: classify(caught), error: caught };
  }

  it('provokes every refusal the table maps, and none is left out', () => {
    expect(PROBES.map(([code]) => code).sort()).toEqual(Object.keys(DATABASE_REFUSALS).sort());
  });

  it.each(PROBES)('%s is answered as mapped', async (code, sql, expected) => {
    const { code: got, answer } = await refusal(sql);
    expect(got).toBe(code);
    expect(answer).toMatchObject({ ...expected, expected: true });
    expect(answer.status).toBe(DATABASE_REFUSALS[code].status);
    // The field is named in the detail as in `errors`; a refusal without one names no field.
    for (const p of answer.errors ?? []) {
      expect(p.field).not.toBe(REQUEST);
      expect(answer.detail).toContain(`${p.field}: `);
    }
  });

  it.each(CLASS_PROBES)('%s, named by no entry, is answered by its class', async (code, status) => {
    const { code: got, answer } = await refusal(raise(code));
    expect(got).toBe(code);
    expect(answer).toMatchObject({ status, expected: true });
  });

  it('a database error no entry maps is a 500, counted, and fails the test file whose server answered it', async () => {
    const before = await unmappedRefusalCount();
    const { code, answer, error } = await refusal('select no_such_column from probe');
    expect(code).toBe('42703');
    expect(answer).toMatchObject({ status: 500, expected: false });
    expect(await unmappedRefusalCount()).toBe(before + 1);
    // The same error classified again (at another step of its request) is counted once.
    classify(error);
    expect(await unmappedRefusalCount()).toBe(before + 1);
    const server = await startServer();
    const again = await refusal(raise('XX000'));
    expect(again.answer.status).toBe(500);
    await expect(server.close()).rejects.toThrow(/answered 1 database error\(s\) with 500/);
  });
});
