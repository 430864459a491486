import 'reflect-metadata';
import { execute, type ExecutionResult } from 'graphql';
import { authenticate } from '../../src/auth/authenticate';
import { signToken, type JwtSettings } from '../../src/auth/jwt';
import { Loaders, type Context } from '../../src/context';
import { openOrm } from '../../src/db/orm';
import { endTenantTransaction } from '../../src/db/tenant-transaction';
import { compileRoutes } from '../../src/rest/compile';
import { restTable } from '../../src/rest/table';
import { buildAppSchema } from '../../src/schema/build';

/**
 * Would compiling each REST row's document with graphql-jit (once, at start-up, in
 * src/rest/compile.ts) pay? Runs the dynamic-search row in-process, authentication and SQL
 * included, with graphql's execute and with the compiled query, and compares time per request.
 * graphql-jit is not a dependency of the project: point GRAPHQL_JIT at an install of it that
 * resolves `graphql` to this project's copy (NODE_PATH=node_modules). Usage:
 *   GRAPHQL_JIT=/path/node_modules/graphql-jit node dist/bench/experiments/graphql-jit.js <database url>
 */
const url = process.argv[2];
// eslint-disable-next-line @typescript-eslint/no-require-imports
const jit = require(process.env.GRAPHQL_JIT ?? 'graphql-jit') as {
  compileQuery(
    schema: unknown,
    document: unknown,
  ): { query(root: unknown, ctx: unknown, vars: unknown): unknown };
};

async function main() {
  const orm = await openOrm({ clientUrl: url, poolMax: 2 });
  const jwt: JwtSettings = { secret: 'x'.repeat(64) };
  try {
    const conn = orm.em.getConnection();
    const [tenant] = await conn.execute<{ id: string }[]>(`select id from tenant where name = 'Main'`);
    const [user] = await conn.execute<{ id: string; email: string }[]>(
      `select id, email from app_user where tenant_id = ? and email like 'planner@%'`,
      [tenant.id],
    );
    const header = `Bearer ${signToken(jwt, { sub: user.id, email: user.email, tenantId: tenant.id })}`;
    const schema = await buildAppSchema();
    const row = compileRoutes(schema, restTable).find(
      (c) => c.route.method === 'GET' && c.route.path === '/hr/features/dynamic-search',
    )!;
    const compiled = jit.compileQuery(schema, row.document);
    if (!('query' in compiled)) throw new Error(`graphql-jit could not compile: ${JSON.stringify(compiled)}`);

    for (const size of [20, 200]) {
      const variableValues = row.variables({
        params: {},
        query: { filters: 'status:eq:READY', sort: 'name,asc', size: String(size) },
      } as never);
      const once = async (engine: 'execute' | 'jit') => {
        const { em, caller } = await authenticate(orm.em, jwt, header);
        const contextValue: Context = { em, caller, loaders: new Loaders(), requestId: 'x' };
        const result = (
          engine === 'jit'
            ? await compiled.query(undefined, contextValue, variableValues)
            : await execute({ schema, document: row.document, variableValues, contextValue })
        ) as ExecutionResult;
        await endTenantTransaction(em, true);
        if (result.errors?.length) throw result.errors[0];
        return JSON.stringify(result.data);
      };
      if ((await once('execute')) !== (await once('jit'))) console.log('  (the two answers differ!)');
      for (const engine of ['execute', 'jit', 'execute', 'jit'] as const) {
        const n = size === 20 ? 300 : 60;
        for (let i = 0; i < 20; i++) await once(engine);
        const start = process.hrtime.bigint();
        for (let i = 0; i < n; i++) await once(engine);
        const micros = Number(process.hrtime.bigint() - start) / 1000 / n;
        console.log(`  page of ${size}, ${engine.padEnd(7)}: ${micros.toFixed(0)} µs per request`);
      }
    }
  } finally {
    await orm.close(true);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
