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
  /** The same, with the values bound to each statement's parameters. */
  takeWithValues(): { text: string; values: unknown[] }[];
  stop(): void;
}

export function recordStatements(): StatementLog {
  const query = Client.prototype.query;
  let seen: { text: string; values: unknown[] }[] = [];
  Client.prototype.query = function (this: Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string; values?: unknown[] } | undefined;
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    const values = Array.isArray(args[1]) ? args[1] : typeof first === 'object' ? (first?.values ?? []) : [];
    if (!/^\s*(BEGIN|COMMIT|ROLLBACK);?\s*$/i.test(text)) seen.push({ text, values });
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof Client.prototype.query;
  const takeWithValues = () => {
    const out = seen;
    seen = [];
    return out;
  };
  return {
    take: () => takeWithValues().map((s) => s.text),
    takeWithValues,
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
