import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DecimalType,
  helper,
  OptimisticLockError,
  raw,
  RawQueryFragment,
  wrap,
  MikroORM,
  type EntityManager,
  type EntityProperty,
} from '@mikro-orm/core';
import {
  AbstractSqlDriver,
  type AbstractSqlConnection,
  type PostgreSqlDriver,
  type SqlEntityManager,
} from '@mikro-orm/postgresql';
import pg from 'pg';
import { KeysKeptMigrationGenerator } from '../../src/db/create-migration';
import { migratorOf, openOrm, ormOptions } from '../../src/db/orm';
import { BEGIN, ConnectionTransaction } from '../../src/db/orm-bypass/connection-transaction';
import { Pipeline, refusedAsReadOnly } from '../../src/db/orm-bypass/pipeline';
import {
  insertStatements,
  insertWithNextStatement,
  updateWithNextStatement,
} from '../../src/db/orm-bypass/deferred-writes';
import { selectByIds, selectManagedByIds, selectManagedByLink } from '../../src/db/orm-bypass/detached';
import { manageView } from '../../src/db/orm-bypass/lone-update';
import { queryRows } from '../../src/db/orm-bypass/statements';
import { withoutMigrationOwnedKeys } from '../../src/db/schema-drift';
import { forkFor } from '../../src/db/tenancy';
import { inTransaction } from '../../src/db/transaction';
import { Invoice } from '../../src/domain/finance/entities/invoice';
import { Feature } from '../../src/domain/hr/entities/feature';
import { Task } from '../../src/domain/hr/entities/task';
import { HistoryEntry, HistoryType } from '../../src/entities/history-entry';
import { historyEntry } from '../../src/history/recorder';
import { workerDatabaseUrl } from '../support/database';
import { ormComposition } from '../../src/orm-composition';

/**
 * What src/db/orm-bypass/ relies on of MikroORM, knex and pg beyond their documented APIs (its
 * README lists them): one test each, named after the module that relies on it. After an upgrade
 * of MikroORM, knex or pg, a failure here says which module to revisit and what it assumed.
 */

/** A pooled pg connection, as knex hands it out. */
type PooledClient = pg.Client & {
  processID: number;
  __knex__disposed?: unknown;
  connection: {
    parsedStatements: Record<string, string>;
    stream: { cork?: unknown; uncork?: unknown };
    sync: unknown;
  };
};

interface KnexClient {
  acquireConnection(): Promise<PooledClient>;
  releaseConnection(connection: unknown): Promise<void>;
  pool: { numUsed(): number };
}

/**
 * Has `seen` told of each call of `target[method]` (with its arguments) before the call runs, by
 * a wrapper set on the object itself; what it returns takes the wrapper away again.
 */
function watch<T extends object>(
  target: T,
  method: keyof T & string,
  seen: (...args: any[]) => void,
): () => void {
  const original = (target[method] as (...args: unknown[]) => unknown).bind(target);
  (target as Record<string, unknown>)[method] = (...args: unknown[]) => {
    seen(...args);
    return original(...args);
  };
  return () => {
    delete (target as Record<string, unknown>)[method];
  };
}

describe('the MikroORM, knex and pg internals the ORM bypass relies on', () => {
  let orm: MikroORM<PostgreSqlDriver>;
  const pool = () =>
    (orm.em.getConnection() as AbstractSqlConnection).getKnex().client as unknown as KnexClient;
  const fork = () => orm.em.fork() as SqlEntityManager;
  const pidOf = (rows: Record<string, unknown>[]) => Number(rows[0].pid);

  beforeAll(async () => {
    // Two connections: a statement that missed its transaction's connection shows as another pid.
    orm = await openOrm({ composition: ormComposition, clientUrl: await workerDatabaseUrl(), poolMax: 2 });
  });
  afterAll(() => orm?.close(true));

  /**
   * A test of what `module` relies on: a failure names the module and the internal before the
   * assertion's own message.
   */
  function relies(module: string, internal: string, check: () => Promise<void> | void): void {
    it(`${module}: ${internal}`, async () => {
      try {
        await check();
      } catch (err) {
        if (err instanceof Error)
          err.message = `src/db/${module} relies on this: ${internal} (see src/db/orm-bypass/README.md)\n\n${err.message}`;
        throw err;
      }
    });
  }

  /**
   * A test of a documented API or a database's own behaviour that `module` relies on: no
   * internal, so not in the README's table of internals, but a change of it would still break
   * the module, which the failure names.
   */
  function documented(module: string, behaviour: string, check: () => Promise<void> | void): void {
    it(`${module} (documented): ${behaviour}`, async () => {
      try {
        await check();
      } catch (err) {
        if (err instanceof Error)
          err.message = `src/db/${module} relies on this documented behaviour: ${behaviour} (see src/db/orm-bypass/README.md)\n\n${err.message}`;
        throw err;
      }
    });
  }

  /**
   * A transaction of a new tenant's manager, in use as a request's: the statements its connection
   * executes with their results, and the texts its serial connection sends.
   */
  async function watchedTransaction() {
    const tenantId = randomUUID();
    const em = forkFor(orm.em, {
      tenantId,
      userId: randomUUID(),
      email: 'o@example.test',
    }) as SqlEntityManager;
    const transaction = await ConnectionTransaction.open(em, [BEGIN]);
    const connection = em.getConnection() as AbstractSqlConnection;
    const results: { sql: string; params: unknown[]; result: unknown }[] = [];
    const execute = connection.execute.bind(connection);
    connection.execute = (async (sql: string, params: unknown[], method: never, ctx: never, log: never) => {
      const result = await execute(sql, params, method, ctx, log);
      results.push({ sql, params, result });
      return result;
    }) as typeof connection.execute;
    const serial = (await transaction.client.acquireConnection()) as {
      query: (...args: unknown[]) => unknown;
    };
    const sent: string[] = [];
    watch(serial, 'query', (config: string | { text: string }) =>
      sent.push(typeof config === 'string' ? config : config.text),
    );
    em.setTransactionContext(transaction as never);
    const end = async () => {
      delete (connection as { execute?: unknown }).execute;
      em.clear();
      await transaction.rollback();
    };
    return { tenantId, em, transaction, results, sent, end };
  }

  // connection-transaction.ts

  relies(
    'orm-bypass/connection-transaction.ts',
    "knex's client hands out the pool's pg connections (acquireConnection) and takes them back (releaseConnection)",
    async () => {
      const client = pool();
      expect(typeof client.acquireConnection).toBe('function');
      expect(typeof client.releaseConnection).toBe('function');
      const before = client.pool.numUsed();
      const connection = await client.acquireConnection();
      try {
        expect(connection).toBeInstanceOf(pg.Client);
        expect(client.pool.numUsed()).toBe(before + 1);
      } finally {
        await client.releaseConnection(connection);
      }
      expect(client.pool.numUsed()).toBe(before);
    },
  );

  relies(
    'orm-bypass/connection-transaction.ts',
    "knex's pool discards a connection marked __knex__disposed instead of handing it out again",
    async () => {
      const client = pool();
      const marked = await client.acquireConnection();
      marked.__knex__disposed = new Error('marked by orm-internals.test.ts');
      await client.releaseConnection(marked);
      const next = await client.acquireConnection();
      try {
        expect(next).not.toBe(marked);
      } finally {
        await client.releaseConnection(next);
      }
    },
  );

  relies(
    'orm-bypass/connection-transaction.ts',
    "MikroORM's execute with a transaction context runs on ctx.client.acquireConnection()'s connection (knex's .transacting takes a client marked `transacting`)",
    async () => {
      const em = fork();
      const transaction = await ConnectionTransaction.open(em, [BEGIN]);
      try {
        const own = pidOf((await transaction.query({ text: 'select pg_backend_pid() as pid' })).rows);
        const throughKnex = await em
          .getConnection()
          .execute('select pg_backend_pid() as pid', [], 'all', transaction as never);
        expect(pidOf(throughKnex)).toBe(own);
      } finally {
        await transaction.rollback();
      }
    },
  );

  relies(
    'orm-bypass/connection-transaction.ts',
    "MikroORM's connection commits a transaction context by calling ctx.commit() and awaiting ctx.executionPromise, and rolls back with ctx.rollback()",
    async () => {
      const connection = orm.em.getConnection('write');
      const calls: string[] = [];
      let fail!: (err: Error) => void;
      const executionPromise = new Promise<void>((_resolve, reject) => (fail = reject));
      executionPromise.catch(() => undefined);
      const failing = {
        commit: () => {
          calls.push('commit');
          fail(new Error('the commit failed'));
        },
        executionPromise,
        rollback: () => {
          calls.push('rollback');
          return Promise.resolve();
        },
      };
      await expect(connection.commit(failing as never)).rejects.toThrow('the commit failed');
      await connection.rollback(failing as never);
      expect(calls).toEqual(['commit', 'rollback']);
    },
  );

  relies(
    'orm-bypass/connection-transaction.ts',
    "em.setTransactionContext takes a ConnectionTransaction, and em.commit() ends it through the context's commit",
    async () => {
      const em = fork();
      const transaction = await ConnectionTransaction.open(em, [BEGIN]);
      em.setTransactionContext(transaction as never);
      expect(em.isInTransaction()).toBe(true);
      expect(em.getTransactionContext()).toBe(transaction);
      await em.commit();
      expect(em.isInTransaction()).toBe(false);
      await expect(transaction.query({ text: 'select 1' })).rejects.toThrow('the transaction has ended');
    },
  );

  documented(
    'orm-bypass/connection-transaction.ts',
    "pg gives an error PostgreSQL answered with the server's severity ERROR (such a connection goes back to the pool)",
    async () => {
      const em = fork();
      const transaction = await ConnectionTransaction.open(em, [BEGIN]);
      try {
        const failed = await transaction.query({ text: 'select 1 / 0' }).catch((err: unknown) => err);
        expect(failed).toMatchObject({ severity: 'ERROR', code: '22012' });
      } finally {
        await transaction.rollback();
      }
    },
  );

  documented(
    'orm-bypass/connection-transaction.ts',
    'the embedded database names itself PGlite in version(), which keeps pipelines off it',
    async () => {
      const [{ version }] = await orm.em.getConnection().execute('select version() as version');
      expect(/\bPGlite\b/.test(String(version))).toBe(!process.env.DATABASE_URL);
    },
  );

  // pipeline.ts

  relies(
    'orm-bypass/pipeline.ts',
    "pg's Query implements the Submittable handlers a pipeline forwards to (prepare, handleRowDescription, handleDataRow, handleCommandComplete, handleReadyForQuery, handleError)",
    () => {
      const query = new pg.Query({ text: 'select $1::int', values: [1], name: 'probe' }) as unknown as Record<
        string,
        unknown
      >;
      for (const handler of [
        'prepare',
        'handleRowDescription',
        'handleDataRow',
        'handleCommandComplete',
        'handleReadyForQuery',
        'handleError',
      ])
        expect([handler, typeof query[handler]]).toEqual([handler, 'function']);
      expect(query).toMatchObject({ text: 'select $1::int', name: 'probe' });
    },
  );

  relies(
    'orm-bypass/pipeline.ts',
    "a pg Client's connection keeps parsedStatements, its socket (stream.cork/uncork) and sync(); the Client has getTypeParser",
    async () => {
      const client = pool();
      const connection = await client.acquireConnection();
      try {
        expect(typeof connection.getTypeParser).toBe('function');
        expect(typeof connection.connection.parsedStatements).toBe('object');
        expect(connection.connection.parsedStatements).not.toBeNull();
        expect(typeof connection.connection.stream.cork).toBe('function');
        expect(typeof connection.connection.stream.uncork).toBe('function');
        expect(typeof connection.connection.sync).toBe('function');
      } finally {
        await client.releaseConnection(connection);
      }
    },
  );

  relies(
    'orm-bypass/pipeline.ts',
    "pg's Client.query(submittable) calls submit(connection) and routes the answers to it until ReadyForQuery",
    async () => {
      const client = pool();
      const connection = await client.acquireConnection();
      const name = `orm_internals_${randomUUID().replace(/-/g, '')}`;
      try {
        const pipeline = new Pipeline(
          [{ text: 'select 1 as one' }, { text: 'select $1::int as two', values: [2], name }],
          connection as never,
        );
        void connection.query(pipeline as never);
        const outcomes = await pipeline.done;
        expect(outcomes.map((o) => ('rows' in o ? o.rows : o.error.message))).toEqual([
          [{ one: 1 }],
          [{ two: 2 }],
        ]);
        expect(connection.connection.parsedStatements[name]).toBe('select $1::int as two');
        expect(pipeline.preparedUnknown).toBe(false);
      } finally {
        await client.releaseConnection(connection);
      }
    },
  );

  documented(
    'orm-bypass/pipeline.ts',
    "pg gives PostgreSQL's SQLSTATE as `code`: a write refused by a read-only transaction is 25006",
    async () => {
      const client = pool();
      const connection = await client.acquireConnection();
      try {
        await connection.query('begin read only');
        const refused = await connection
          .query('create temporary table refused (a int)')
          .catch((err: unknown) => err);
        expect(refusedAsReadOnly(refused)).toBe(true);
      } finally {
        await connection.query('rollback');
        await client.releaseConnection(connection);
      }
    },
  );

  // statements.ts

  documented(
    'orm-bypass/statements.ts',
    "a query builder's getKnexQuery().toSQL().toNative() gives the statement with $n placeholders and its bindings",
    () => {
      const qb = fork().createQueryBuilder(Feature, 'e0').select('*').where({ name: 'probe' });
      expect(typeof qb.getKnexQuery).toBe('function');
      const native = qb.getKnexQuery().toSQL().toNative();
      expect(native.sql).toMatch(/"e0"\."name" = \$1/);
      expect(native.bindings).toEqual(['probe']);
    },
  );

  // detached.ts

  const decimalOf = (em: EntityManager): EntityProperty => {
    const prop = em
      .getMetadata()
      .get(Invoice.name)
      .props.find((p) => p.customType instanceof DecimalType);
    expect(prop).toBeDefined();
    return prop!;
  };

  relies(
    'orm-bypass/detached.ts',
    "the hydrator's hydrate(entity, meta, data, factory, 'full', newEntity, convertCustomTypes) sets properties and converts custom types only when asked",
    () => {
      const em = fork();
      const meta = em.getMetadata().get(Invoice.name);
      const hydrator = em.config.getHydrator(em.getMetadata());
      const prop = decimalOf(em);
      const hydrated = (convert: boolean) => {
        const entity = Object.create(Invoice.prototype as object) as Record<string, unknown>;
        hydrator.hydrate(
          entity,
          meta,
          { [prop.name]: '12.50' } as never,
          em.getEntityFactory(),
          'full',
          false,
          convert,
        );
        return entity[prop.name];
      };
      expect(hydrated(true)).toBe(12.5);
      expect(hydrated(false)).toBe('12.50');
    },
  );

  documented(
    'orm-bypass/detached.ts',
    "a custom type's convertToJSValue(value, platform, { mode: 'serialization' }) gives the entity's value",
    () => {
      const em = fork();
      const prop = decimalOf(em);
      expect(prop.customType!.convertToJSValue('12.50', em.getPlatform(), { mode: 'serialization' })).toBe(
        12.5,
      );
    },
  );

  relies(
    'orm-bypass/detached.ts',
    'em.find makes a record of its rows with entityFactory.create(name, data, { merge: true, convertCustomTypes: true }) after em.tryFlush: selectManagedByIds gives the same record, managed and tracked',
    async () => {
      const { tenantId, em, end } = await watchedTransaction();
      try {
        const feature = em.create(Feature, {
          tenantId,
          name: 'probe',
          tags: ['a'],
          estimatedPoints: 3,
        } as never);
        await em.persistAndFlush(feature);
        em.clear();
        const [found] = await em.find(Feature, { id: feature.id });
        const snapshot = helper(found).__originalEntityData;
        em.clear();
        // A change pending in the unit of work is flushed before the read, as em.find flushes it.
        const pending = em.create(Feature, { tenantId, name: 'pending', tags: [] } as never);
        em.persist(pending);
        const [read] = await selectManagedByIds<Feature>(em, Feature.name, [feature.id]);
        const stored = await queryRows(em, 'select count(*)::int as n from feature where id = $1', [
          pending.id,
        ]);
        expect(stored).toEqual([{ n: 1 }]);
        expect(read).toBeInstanceOf(Feature);
        expect(read).not.toBe(found);
        expect(helper(read).__managed).toBe(true);
        expect(JSON.stringify(wrap(read).toObject())).toBe(JSON.stringify(wrap(found).toObject()));
        expect(helper(read).__originalEntityData).toEqual(snapshot);
        // A change to it is tracked; read again, the managed record is returned as it is.
        read.name = 'changed';
        em.getUnitOfWork().computeChangeSets();
        const changes = em.getUnitOfWork().getChangeSets();
        expect(changes.map((cs) => [cs.type, cs.payload])).toEqual([['update', { name: 'changed' }]]);
        const [again] = await selectManagedByIds<Feature>(em, Feature.name, [feature.id]);
        expect(again).toBe(read);
        expect(again.name).toBe('changed');
      } finally {
        await end();
      }
    },
  );

  relies(
    'orm-bypass/detached.ts',
    'em.find by a link ({ featureId: { $in: ids } }) makes its records as by id: selectManagedByLink gives the same records, managed and tracked',
    async () => {
      const { tenantId, em, end } = await watchedTransaction();
      try {
        const feature = em.create(Feature, { tenantId, name: 'probe', tags: [] } as never);
        const other = em.create(Feature, { tenantId, name: 'other', tags: [] } as never);
        await em.persistAndFlush([feature, other]);
        const tasks = ['a', 'b'].map((title) =>
          em.create(Task, { tenantId, title, featureId: feature.id } as never),
        );
        const elsewhere = em.create(Task, { tenantId, title: 'c', featureId: other.id } as never);
        await em.persistAndFlush([...tasks, elsewhere]);
        em.clear();
        const found = await em.find(Task, { featureId: { $in: [feature.id] } } as never);
        const byId = (list: readonly Task[]) => [...list].sort((x, y) => x.id.localeCompare(y.id));
        const snapshots = byId(found).map((t) => helper(t).__originalEntityData);
        em.clear();
        for (const ids of [[feature.id], [feature.id, randomUUID()]]) {
          em.clear();
          const read = byId((await selectManagedByLink<Task>(em, Task.name, 'featureId', ids))!);
          expect(read.map((t) => t.id)).toEqual(byId(found).map((t) => t.id));
          read.forEach((t, i) => {
            expect(t).toBeInstanceOf(Task);
            expect(helper(t).__managed).toBe(true);
            expect(JSON.stringify(wrap(t).toObject())).toBe(JSON.stringify(wrap(byId(found)[i]).toObject()));
            expect(helper(t).__originalEntityData).toEqual(snapshots[i]);
          });
          // Tracked: the link cleared is the flush's update.
          read[0].featureId = null;
          em.getUnitOfWork().computeChangeSets();
          expect(
            em
              .getUnitOfWork()
              .getChangeSets()
              .map((cs) => [cs.type, cs.payload]),
          ).toEqual([['update', { featureId: null }]]);
        }
        // Not a uuid link of a tenant's record: the caller finds them with em.find.
        expect(selectManagedByLink(em, Task.name, 'title', ['x'])).toBeUndefined();
      } finally {
        await end();
      }
    },
  );

  documented(
    'orm-bypass/detached.ts',
    "the driver's mapResult(row, meta) names a row's columns by property",
    () => {
      const em = fork();
      const meta = em.getMetadata().get(Feature.name);
      const renamed = meta.props.find(
        (p) => p.fieldNames?.length === 1 && p.fieldNames[0] !== p.name && !p.customType,
      );
      expect(renamed).toBeDefined();
      const data = em.getDriver().mapResult({ [renamed!.fieldNames[0]]: 'value' } as never, meta) as Record<
        string,
        unknown
      >;
      expect(data[renamed!.name]).toBe('value');
    },
  );

  relies(
    'orm-bypass/view-prototype.ts',
    "MikroORM puts a setter without a getter on the entity class's prototype for each tracked property (views and deferred rows shadow them)",
    () => {
      let descriptor: PropertyDescriptor | undefined;
      for (
        let p: object | null = Feature.prototype;
        p && !descriptor;
        p = Object.getPrototypeOf(p) as object | null
      )
        descriptor = Object.getOwnPropertyDescriptor(p, 'name');
      expect(typeof descriptor?.set).toBe('function');
      expect(descriptor?.get).toBeUndefined();
    },
  );

  relies(
    'orm-bypass/detached.ts',
    'a raw fragment used as a key stays known (RawQueryFragment.isKnownFragment) until getKnownFragment(key) releases it; getKnownFragment(key, false) only reads it',
    () => {
      const fragment = raw('lower(name)');
      const key = String(fragment);
      expect(RawQueryFragment.isRaw(fragment)).toBe(true);
      expect(RawQueryFragment.isKnownFragment(key)).toBe(true);
      expect(RawQueryFragment.getKnownFragment(key, false)).toMatchObject({ sql: 'lower(name)', params: [] });
      expect(RawQueryFragment.isKnownFragment(key)).toBe(true);
      RawQueryFragment.getKnownFragment(key);
      expect(RawQueryFragment.isKnownFragment(key)).toBe(false);
    },
  );

  documented(
    'orm-bypass/detached.ts',
    "qb.applyFilters() applies the tenant filter to a query builder's statement",
    async () => {
      const tenantId = randomUUID();
      const em = forkFor(orm.em, {
        tenantId,
        userId: randomUUID(),
        email: 'probe@example.com',
      }) as SqlEntityManager;
      const qb = em.createQueryBuilder(Feature, 'e0').select('*');
      const before = qb.getKnexQuery().toSQL().toNative();
      expect(before.bindings).not.toContain(tenantId);
      const filtered = em.createQueryBuilder(Feature, 'e0').select('*');
      await filtered.applyFilters();
      const after = filtered.getKnexQuery().toSQL().toNative();
      expect(after.sql).toMatch(/"e0"\."tenant_id" = \$1/);
      expect(after.bindings).toContain(tenantId);
    },
  );

  relies(
    'orm-bypass/detached.ts',
    "knex's limit(n, { skipBinding: true }) writes the size into the text; a count builder selects `count`; select('*') is \"e0\".*",
    () => {
      const em = fork();
      const page = em
        .createQueryBuilder(Feature, 'e0')
        .select('*')
        .where({ name: 'probe' })
        .getKnexQuery()
        .limit(20, { skipBinding: true })
        .toSQL()
        .toNative();
      expect(page.sql).toMatch(/^select "e0"\.\* from "feature" as "e0" where .* limit 20$/);
      expect(page.bindings).toEqual(['probe']);
      const count = em.createQueryBuilder(Feature, 'e0').count().getKnexQuery().toSQL().toNative();
      expect(count.sql).toMatch(/^select count\(.*\) as "count" from "feature" as "e0"/);
    },
  );

  // schema-drift.ts and create-migration.ts, beside the folder: MikroORM's own diff, without the
  // foreign keys the migrations own.

  /** How MikroORM writes the drop of the key a migration gave feature.epic_id. */
  const DROP_OWNED_KEY = 'alter table "feature" drop constraint "feature_epic_id_tenant_fk";';

  documented(
    'schema-drift.ts',
    'getUpdateSchemaSQL({ wrap: false }) diffs from the database and drops a foreign key no entity describes in a line `alter table "t" drop constraint "name";` of its own, safe or not',
    async () => {
      for (const safe of [false, true]) {
        const lines = (await orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false, safe })).split('\n');
        expect(lines).toContain(DROP_OWNED_KEY);
        // Every statement naming such a key is one that schemaDrift takes for a drop of it.
        expect(withoutMigrationOwnedKeys(lines.filter((l) => l.includes('_tenant_fk')))).toEqual([]);
      }
    },
  );

  documented(
    'create-migration.ts',
    "with migrations.snapshot false the Migrator diffs from the database (a key no entity describes dropped in up(), added again in down()) and writes what its generator's generateMigrationFile returns",
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'migration-'));
      const options = ormOptions({
        composition: ormComposition,
        clientUrl: await workerDatabaseUrl(),
        poolMax: 1,
      });
      options.migrations = {
        ...options.migrations,
        path: dir,
        pathTs: dir,
        emit: 'ts',
        generator: KeysKeptMigrationGenerator,
      };
      const own = await MikroORM.init<PostgreSqlDriver>(options);
      try {
        expect(own.config.get('migrations').snapshot).toBe(false);
        const result = await (await migratorOf(own)).createMigration(dir);
        expect(result.diff.up).toContain(DROP_OWNED_KEY);
        expect(result.diff.down).toContainEqual(
          expect.stringMatching(
            /^alter table "feature" add constraint "feature_epic_id_tenant_fk" foreign key /,
          ),
        );
        // The file is the generator's text (without the keys), and no snapshot is written beside it.
        expect(fs.readdirSync(dir)).toEqual([result.fileName]);
        const written = fs.readFileSync(path.join(dir, result.fileName), 'utf8');
        expect(written).toBe(result.code);
        expect(written).toMatch(/export class \w+ extends Migration/);
        expect(written).not.toMatch(/_tenant_fk/);
      } finally {
        await own.close(true);
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  relies(
    'orm-bypass/deferred-writes.ts',
    "an entity's stored scalar properties (fieldNames, customType.convertToDatabaseValue) are the columns and values MikroORM's own flush writes",
    async () => {
      const actor = {
        tenantId: randomUUID(),
        userId: randomUUID(),
        email: 'someone@example.test',
        requestId: 'r1',
      };
      const entry = () =>
        historyEntry(actor, {
          recordType: 'Feature',
          recordId: '00000000-0000-4000-8000-000000000001',
          type: HistoryType.UPDATE,
          description: 'Updated name',
          changes: { name: { old: 'a', new: 'b' }, tags: { old: [], new: ['x'] } },
          at: new Date('2026-01-02T03:04:05.678Z'),
        });
      const flushed = entry();
      const inserted = Object.assign(entry(), { seq: flushed.seq });
      const em = fork();
      const rows = await inTransaction(em, async () => {
        em.persist(flushed);
        await em.flush();
        for (const statement of insertStatements(em, HistoryEntry.name, [inserted]))
          await queryRows(em, statement.text, statement.values ?? []);
        const read = await queryRows(
          em,
          'select * from record_history where id = any($1::uuid[]) order by id',
          [[flushed.id, inserted.id]],
        );
        throw Object.assign(new Error('rolled back'), { read });
      }).catch((err: { read?: Record<string, unknown>[] }) => err.read);
      const byId = new Map(rows!.map(({ id, ...rest }) => [id, rest]));
      expect(byId.get(inserted.id)).toEqual(byId.get(flushed.id));
      expect(byId.get(flushed.id)).toMatchObject({ description: 'Updated name', changes: flushed.changes });
    },
  );

  // bound-execute.ts

  relies(
    'orm-bypass/bound-execute.ts',
    "MikroORM's flush sends through Connection.execute(sql with `?`, params, method, ctx) with the transaction context; bound, its row is the row of formatQuery's inline form",
    async () => {
      const actor = {
        tenantId: randomUUID(),
        userId: randomUUID(),
        email: 'o@example.test',
        requestId: 'r2',
      };
      const entry = historyEntry(actor, {
        recordType: 'Feature',
        recordId: randomUUID(),
        type: HistoryType.UPDATE,
        description: "Updated name, it's \\ a question?",
        changes: { name: { old: 'a', new: 'b?' }, tags: { old: [], new: ['x', "y'"] } },
        at: new Date('2026-01-02T03:04:05.678Z'),
      });
      const em = fork();
      const connection = em.getConnection() as AbstractSqlConnection;
      const calls: { sql: string; params: unknown[]; ctx: unknown }[] = [];
      const unwatch = watch(connection, 'execute', (sql: string, params: unknown[], _method, ctx) =>
        calls.push({ sql, params, ctx }),
      );
      const transaction = await ConnectionTransaction.open(em, [BEGIN]);
      // What reaches the transaction's connection, as knex is handed it.
      const serial = (await transaction.client.acquireConnection()) as {
        query: (...args: unknown[]) => unknown;
      };
      const sent: { text: string; values?: readonly unknown[] }[] = [];
      watch(serial, 'query', (config: unknown) => {
        if (typeof config === 'object') sent.push(config as { text: string; values?: readonly unknown[] });
      });
      try {
        em.setTransactionContext(transaction as never);
        em.persist(entry);
        await em.flush();
        const insert = calls.find((c) => c.sql.startsWith('insert into "record_history"'))!;
        expect(insert.ctx).toBe(transaction);
        expect(insert.sql).toContain('?');
        expect(insert.params).toContain(entry.id);
        expect(sent.find((c) => c.text.startsWith('insert into "record_history"'))?.values).toHaveLength(
          insert.params.length,
        );
        const other = { id: randomUUID(), recordId: randomUUID() };
        const params = insert.params.map((p) =>
          p === entry.id ? other.id : p === entry.recordId ? other.recordId : p,
        );
        await transaction.query({ text: orm.em.getPlatform().formatQuery(insert.sql, params) });
        const { rows } = await transaction.query({
          text: 'select * from record_history where id = any($1::uuid[])',
          values: [[entry.id, other.id]],
        });
        const byId = new Map(rows.map((row) => [row.id, { ...row, id: undefined, record_id: undefined }]));
        expect(byId.get(entry.id)).toEqual(byId.get(other.id));
        expect(byId.get(entry.id)).toMatchObject({ description: entry.description, changes: entry.changes });
      } finally {
        unwatch();
        em.clear();
        await transaction.rollback();
      }
    },
  );

  relies(
    'orm-bypass/bound-execute.ts',
    "MikroORM's flush inserts a new record through the driver's nativeInsertMany, which hands its transform's text to Connection.execute at once; the statement returns the columns deferredInsert answers without it",
    async () => {
      const { tenantId, em, transaction, results, sent, end } = await watchedTransaction();
      try {
        const create = () => em.create(Feature, { tenantId, name: 'probe' } as never);
        // Sent on its own: what the database returns.
        const sentAlone = create();
        await em.persistAndFlush(sentAlone);
        const alone = results.find((r) => r.sql.startsWith('insert into "feature"'))!;
        expect(sent.filter((t) => t.startsWith('insert into "feature"'))).toHaveLength(1);
        // Deferred: nothing sent, and the same columns answered.
        results.length = 0;
        const deferred = create();
        expect(insertWithNextStatement(em, 'Feature', deferred, {})).toBe(true);
        await em.persistAndFlush(deferred);
        const answered = results.find((r) => r.sql.startsWith('insert into "feature"'))!;
        expect(answered.sql).toBe(alone.sql);
        expect(sent.filter((t) => t.startsWith('insert into "feature"'))).toHaveLength(1);
        expect(answered.result).toEqual(alone.result);
        expect([deferred.version, sentAlone.version]).toEqual([1, 1]);
        // It goes out with the next statement.
        const { rows } = await transaction.query({
          text: 'select count(*)::int as n from feature where tenant_id = $1',
          values: [tenantId],
        });
        expect(rows[0].n).toBe(2);
      } finally {
        await end();
      }
    },
  );

  relies(
    'orm-bypass/lone-update.ts',
    "a record em.find reads is managed with the comparator's prepareEntity and its version as its snapshot (__originalEntityData), and registered in the identity map; the flush's update of it is the comparator's diffEntities of that snapshot and prepareEntity of the record, handed to the driver's nativeUpdate by primary key and version, converted already",
    async () => {
      const { tenantId, em, end } = await watchedTransaction();
      const driver = em.getDriver();
      const comparator = em.getComparator();
      const updates: { where: Record<string, unknown>; data: Record<string, unknown>; convert: unknown }[] =
        [];
      const unwatch = watch(
        driver,
        'nativeUpdate',
        (_name, where: object, data: object, options?: { convertCustomTypes?: unknown }) =>
          updates.push({ where: { ...where }, data: { ...data }, convert: options?.convertCustomTypes }),
      );
      try {
        const made = em.create(Feature, { tenantId, name: 'probe', tags: ['a'] } as never);
        await em.persistAndFlush(made);
        em.clear();
        // A view made managed as a lone update makes it has what a find's record has.
        const [view] = await selectByIds<Feature>(em, 'Feature', [made.id]);
        manageView(em, view);
        const viewSnapshot = helper(view).__originalEntityData;
        expect(em.getUnitOfWork().getIdentityMap().values()).toEqual([view]);
        em.clear();
        const feature = await em.findOneOrFail(Feature, { id: made.id });
        const before = helper(feature).__originalEntityData as Record<string, unknown>;
        expect(before).toEqual(viewSnapshot);
        expect(before).toEqual({ ...comparator.prepareEntity(feature), version: 1 });
        feature.name = 'renamed';
        feature.tags = ['a', 'b'];
        await em.flush();
        expect(updates).toHaveLength(1);
        // With what the tenancy subscriber changed (the audit fields), the driver is handed the
        // fields changed since the snapshot.
        expect(updates[0].data).toEqual(
          comparator.diffEntities('Feature', before, comparator.prepareEntity(feature)),
        );
        expect(Object.keys(updates[0].data).sort()).toEqual(['name', 'tags', 'updated']);
        expect(updates[0].where).toEqual({ tenantId, id: feature.id, version: 1 });
        expect(updates[0].convert).toBe(false);
      } finally {
        unwatch();
        await end();
      }
    },
  );

  relies(
    'orm-bypass/bound-execute.ts',
    "MikroORM's flush updates a versioned record through the driver's nativeUpdate, its condition the version read, its statement (handed to Connection.execute) setting version + 1 and returning only it; no row updated is its optimistic lock's failure",
    async () => {
      const { tenantId, em, transaction, results, sent, end } = await watchedTransaction();
      const driver = em.getDriver();
      const updates: { where: Record<string, unknown>; data: Record<string, unknown> }[] = [];
      const unwatch = watch(driver, 'nativeUpdate', (_name, where: object, data: object) =>
        updates.push({ where: { ...where }, data: { ...data } }),
      );
      const isUpdate = (sql: string) => sql.startsWith('update "feature"');
      try {
        const feature = em.create(Feature, { tenantId, name: 'probe' } as never);
        await em.persistAndFlush(feature);
        // Each flush below must stamp a new `updated` (a millisecond), or the first statement's
        // columns would depend on the clock.
        const laterThanStamp = async () => {
          while (Date.now() <= feature.updated!.getTime()) await new Promise((r) => setTimeout(r, 1));
        };
        // Sent on its own: what the driver is handed and the database returns.
        await laterThanStamp();
        feature.name = 'renamed alone';
        await em.flush();
        expect(updates[0].where).toMatchObject({ id: feature.id, version: 1 });
        expect('version' in updates[0].data).toBe(false);
        const alone = results.find((r) => isUpdate(r.sql))!;
        expect(alone.sql).toMatch(/"version" = "version" \+ 1 .*where .*"version" = \? returning "version"$/);
        expect(alone.result).toMatchObject({ affectedRows: 1, row: { version: 2 } });
        expect(feature.version).toBe(2);
        expect(sent.filter(isUpdate)).toHaveLength(1);
        // Deferred: nothing sent, the same statement answered as the database would have.
        results.length = 0;
        await laterThanStamp();
        feature.name = 'renamed deferred';
        await updateWithNextStatement(em, 'Feature', feature, {}, () => em.flush());
        const answered = results.find((r) => isUpdate(r.sql))!;
        expect(answered.sql).toBe(alone.sql);
        expect(answered.result).toMatchObject({ affectedRows: 1, row: { version: 3 } });
        expect(feature.version).toBe(3);
        expect(sent.filter(isUpdate)).toHaveLength(1);
        // It goes out with the next statement.
        const read = { text: 'select name, version from feature where id = $1', values: [feature.id] };
        expect((await transaction.query(read)).rows).toEqual([{ name: 'renamed deferred', version: 3 }]);
        // Matching no row (changed since it was read): the optimistic lock's failure, at the next
        // statement.
        await transaction.query({
          text: 'update feature set version = 7 where id = $1',
          values: [feature.id],
        });
        feature.name = 'changed since';
        await updateWithNextStatement(em, 'Feature', feature, {}, () => em.flush());
        await expect(transaction.query(read)).rejects.toBeInstanceOf(OptimisticLockError);
      } finally {
        unwatch();
        await end();
      }
    },
  );

  relies(
    'orm-bypass/bound-execute.ts',
    "MikroORM's nativeUpdate makes, for the same change, the text BoundDriver keeps for its shape (each column's kind: decimal, JSON, text[], dates, null, the version's lock) and binds the same values; a kept text built no query builder and still fails its optimistic lock",
    async () => {
      const { tenantId, em, transaction, results, end } = await watchedTransaction();
      const driver = em.getDriver();
      const connection = em.getConnection() as AbstractSqlConnection;
      const calls: { name: string; where: object; data: object; options: object }[] = [];
      const unwatchUpdates = watch(
        driver,
        'nativeUpdate',
        (name: string, where: object, data: object, options: object) =>
          calls.push({ name, where: { ...where }, data: { ...data }, options: { ...options } }),
      );
      let builders = 0;
      const unwatchBuilders = watch(driver, 'createQueryBuilder', () => builders++);
      /** What MikroORM's own nativeUpdate hands Connection.execute for `call`, sending nothing. */
      const mikroOrms = async (call: (typeof calls)[number]) => {
        const own: { sql: string; params: unknown[] }[] = [];
        const execute = connection.execute;
        connection.execute = (async (sql: string, params: unknown[]) => {
          own.push({ sql, params });
          return { affectedRows: 1, insertId: 0, row: { version: 1 }, rows: [{ version: 1 }] };
        }) as typeof connection.execute;
        try {
          await AbstractSqlDriver.prototype.nativeUpdate.call(
            driver,
            call.name,
            call.where,
            call.data,
            call.options,
          );
        } finally {
          connection.execute = execute;
        }
        expect(own).toHaveLength(1);
        return own[0];
      };
      const isUpdate = (sql: string) => sql.startsWith('update ');
      try {
        const invoice = em.create(Invoice, { tenantId } as never);
        const feature = em.create(Feature, { tenantId, name: 'probe' } as never);
        await em.persistAndFlush([invoice, feature]);
        const changes: [object, (n: number) => void][] = [
          [
            invoice,
            (n) =>
              Object.assign(invoice, {
                paid: 12.5 + n,
                attachments: [{ name: `a${n}`, size: n }],
                pdf: { name: `p${n}` },
                sentMails: [`m${n}`, 'x'],
                invoiceDate: new Date(Date.UTC(2026, 0, 1 + n)),
                note: n % 2 ? null : `note ${n}`,
              }),
          ],
          [invoice, (n) => Object.assign(invoice, { note: `note ${n}`, recurringAgreement: { every: n } })],
          [
            feature,
            (n) =>
              Object.assign(feature, {
                name: `renamed ${n}`,
                tags: [`t${n}`],
                description: n % 2 ? null : `d${n}`,
              }),
          ],
        ];
        const versions = new Map<object, number>();
        for (const [record, change] of changes)
          for (let n = 1; n <= 3; n++) {
            change(n);
            calls.length = 0;
            results.length = 0;
            builders = 0;
            await em.flush();
            expect(calls).toHaveLength(1);
            const sent = results.filter((r) => isUpdate(r.sql));
            expect(sent).toHaveLength(1);
            expect(sent[0].result).toMatchObject({ affectedRows: 1 });
            const version = (versions.get(record) ?? 1) + 1;
            versions.set(record, version);
            expect((record as { version: number }).version).toBe(version);
            // From its second use on, the shape's text is kept: no query builder.
            if (n > 1) expect(builders).toBe(0);
            const own = await mikroOrms(calls[0]);
            expect(sent[0].sql).toBe(own.sql);
            expect(sent[0].params).toEqual(own.params);
          }
        // A kept text matching no row: MikroORM's optimistic lock fails as its own statement would.
        await transaction.query({
          text: 'update feature set version = 40 where id = $1',
          values: [feature.id],
        });
        feature.name = 'changed since';
        feature.tags = ['late'];
        feature.description = 'late';
        builders = 0;
        await expect(em.flush()).rejects.toBeInstanceOf(OptimisticLockError);
        expect(builders).toBe(0);
      } finally {
        unwatchUpdates();
        unwatchBuilders();
        await end();
      }
    },
  );

  // tenant-transaction.ts, beside the folder: commits a read without MikroORM's flush.

  documented(
    'tenant-transaction.ts',
    "the UnitOfWork's stacks say whether a flush would write (persist, remove, orphan-remove, collection and extra updates, identity map)",
    () => {
      const uow = fork().getUnitOfWork(false);
      expect(uow.getPersistStack()).toBeInstanceOf(Set);
      expect(uow.getRemoveStack()).toBeInstanceOf(Set);
      expect(uow.getOrphanRemoveStack()).toBeInstanceOf(Set);
      expect(Array.isArray(uow.getCollectionUpdates())).toBe(true);
      expect(uow.getExtraUpdates()).toBeInstanceOf(Set);
      expect([...uow.getIdentityMap()]).toEqual([]);
    },
  );
});
