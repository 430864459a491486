import { Client } from 'pg';
import type { Statement } from './sql-capture';

/**
 * EXPLAIN (ANALYZE, BUFFERS) of statements the service sent, run the way the service runs them:
 * in a transaction as the application role with the tenant set, so the row-level security
 * policy is part of the plan.
 */
export interface Explained {
  sql: string;
  plan: string;
  executionMs: number;
  /** Index names the plan reads. */
  indexes: string[];
}

export async function explainAll(
  databaseUrl: string,
  tenantId: string,
  statements: Statement[],
): Promise<Explained[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const out: Explained[] = [];
    for (const s of statements) {
      await client.query('BEGIN');
      try {
        await client.query(
          `select set_config('role', 'bms_app', true), set_config('app.tenant_id', $1, true)`,
          [tenantId],
        );
        // Twice: the first run warms the cache, the second is the steady state being measured.
        await client.query(`EXPLAIN (ANALYZE) ${s.sql}`, s.params);
        const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${s.sql}`, s.params);
        const plan = rows.map((r) => r['QUERY PLAN'] as string).join('\n');
        out.push({
          sql: s.sql,
          plan,
          executionMs: Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? NaN),
          indexes: [...new Set([...plan.matchAll(/(?:Scan using|Index Scan on) (\w+)/g)].map((m) => m[1]))],
        });
      } finally {
        await client.query('ROLLBACK');
      }
    }
    return out;
  } finally {
    await client.end();
  }
}
