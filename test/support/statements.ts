import { Client } from 'pg';

/**
 * The SQL statements a test's requests send, seen at the pg driver: whatever path a statement
 * takes (the ORM, a query builder's compiled form, a raw statement on the transaction's
 * connection), it passes here. A bare BEGIN, COMMIT or ROLLBACK is left out: every request has
 * them. Statements sent together in one round trip (BEGIN with the tenant's settings and the
 * user) count as one.
 */
export interface StatementLog {
  /** The statements since the last `take`, and a fresh start. */
  take(): string[];
  stop(): void;
}

export function recordStatements(): StatementLog {
  const query = Client.prototype.query;
  let seen: string[] = [];
  Client.prototype.query = function (this: Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string } | undefined;
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    if (!/^\s*(BEGIN|COMMIT|ROLLBACK);?\s*$/i.test(text)) seen.push(text);
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof Client.prototype.query;
  return {
    take() {
      const out = seen;
      seen = [];
      return out;
    },
    stop() {
      Client.prototype.query = query;
    },
  };
}

/** The statements sent while `work` runs. */
export async function statementsDuring(work: () => Promise<unknown>): Promise<string[]> {
  const log = recordStatements();
  try {
    await work();
    return log.take();
  } finally {
    log.stop();
  }
}
