import { Client } from 'pg';

/**
 * The SQL statements a test's requests send, seen at the pg driver: whatever path a statement
 * takes (the ORM, a query builder's compiled form, a raw statement on the transaction's
 * connection), it passes here. A bare BEGIN, COMMIT or ROLLBACK is left out: every request has
 * them. A pipeline's statements (src/db/orm-bypass/pipeline.ts: BEGIN, the tenant's settings and the
 * request's first statement, sent together) are seen one by one.
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
    type Sent = { text?: string; values?: readonly unknown[] };
    const first = args[0] as string | (Sent & { statements?: Sent[] }) | undefined;
    const sent: Sent[] =
      typeof first === 'object' && first?.statements
        ? first.statements
        : [
            {
              text: typeof first === 'string' ? first : first?.text,
              values: Array.isArray(args[1]) ? args[1] : typeof first === 'object' ? first?.values : [],
            },
          ];
    for (const { text = '', values = [] } of sent)
      if (!/^\s*(BEGIN|COMMIT|ROLLBACK);?\s*$/i.test(text)) seen.push({ text, values: [...values] });
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

/**
 * The round trips `work` makes, each the statements sent in it: every `query` call of the pg
 * driver is one (a pipeline's statements go in one call), BEGIN and COMMIT included.
 */
export async function tripsDuring(work: () => Promise<unknown>): Promise<string[][]> {
  const query = Client.prototype.query;
  const trips: string[][] = [];
  Client.prototype.query = function (this: Client, ...args: unknown[]) {
    type Sent = { text?: string };
    const first = args[0] as string | (Sent & { statements?: Sent[] }) | undefined;
    const sent = typeof first === 'object' && first?.statements ? first.statements : [first];
    trips.push(sent.map((s) => (typeof s === 'string' ? s : (s?.text ?? ''))));
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof Client.prototype.query;
  try {
    await work();
  } finally {
    Client.prototype.query = query;
  }
  return trips;
}
