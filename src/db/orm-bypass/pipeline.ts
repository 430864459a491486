import { Query, type QueryResult } from 'pg';
import type { Rows } from '../rows';

/** What of a pg Client and its Connection a pipeline uses (pg's Submittable protocol). */
interface PgConnection {
  stream: { cork?: () => void; uncork?: () => void };
  parsedStatements: Record<string, string>;
  sync(): void;
}

/**
 * What a pipeline uses of pg's Query: the handlers pg itself calls on the query it is running
 * (pg's own Query implements them; its published types leave them out).
 */
interface PgQuery {
  text: string;
  name?: string;
  queryMode?: string;
  callback?: (err: Error | null, result?: QueryResult) => void;
  prepare(connection: PgConnection): void;
  handleRowDescription(msg: unknown): void;
  handleDataRow(msg: unknown): void;
  handleCommandComplete(msg: unknown, connection: PgConnection): void;
  handleReadyForQuery(connection: PgConnection): void;
}

/** PostgreSQL's read_only_sql_transaction: a write (or nextval, or a row lock) refused, nothing done. */
export function refusedAsReadOnly(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === '25006';
}

/** One statement of a pipeline: text, bound values and, for a prepared statement, its name. */
export interface PipelinedStatement {
  text: string;
  values?: readonly unknown[];
  name?: string;
}

/** Each statement's rows, or the error that ended the pipeline at that statement or before it. */
export type PipelineOutcome = { rows: Rows; result: QueryResult } | { error: Error };

/**
 * Several statements sent to PostgreSQL in one write and answered in one round trip: each is
 * parsed (unless its connection has it prepared), bound, described and executed, and a single
 * Sync closes the lot. PostgreSQL runs them in order, and after an error it skips the rest up
 * to the Sync, so a statement never runs after one before it failed. pg sends every statement
 * with a Sync of its own and waits for its answer before sending the next; a request's
 * transaction begins with BEGIN and its settings and then sends its first statement, and each
 * round trip costs a socket write and a wake-up on both sides.
 *
 * This is pg's Submittable protocol (as pg-cursor uses it): pg hands the connection to
 * `submit` when the client is free and routes every answer here until ReadyForQuery. Each
 * statement is one of pg's own Query objects, which encode the values and parse the rows as
 * any query of the client does; only their Syncs are held back.
 */
export class Pipeline {
  private readonly parts: PgQuery[];
  private current = 0;
  /** The parts that sent a Parse in this write (their statement exists once they answer). */
  private readonly parsing = new Set<PgQuery>();
  private readonly outcomes: PipelineOutcome[] = [];
  private settle!: (outcomes: PipelineOutcome[]) => void;
  readonly done: Promise<PipelineOutcome[]>;
  /**
   * Set when a statement that was being prepared in this write failed: PostgreSQL does not say
   * whether its Parse or a later step failed, so whether the name now exists on the connection
   * is unknown (and a later Parse of it could fail).
   */
  preparedUnknown = false;

  constructor(
    /** The statements, in order (tools that watch the driver read them here). */
    readonly statements: readonly PipelinedStatement[],
    typeParsers: { getTypeParser: (oid: number, format?: string) => unknown },
  ) {
    this.parts = statements.map((s, i) => {
      const part = new Query({
        text: s.text,
        values: s.values as unknown[],
        name: s.name,
        types: typeParsers as never,
      }) as unknown as PgQuery;
      // The extended protocol for every part: a part without values is still one statement.
      part.queryMode = 'extended';
      part.callback = (err, result) => {
        this.outcomes[i] = err ? { error: err } : { rows: result!.rows as Rows, result: result! };
      };
      return part;
    });
    this.done = new Promise((resolve) => (this.settle = resolve));
  }

  submit(connection: PgConnection): void {
    // Each part's own Sync is held back; one Sync ends the pipeline.
    const withoutSync = Object.create(connection, { sync: { value: () => undefined } }) as PgConnection;
    const prepared = connection.parsedStatements;
    connection.stream.cork?.();
    try {
      const parsedHere = new Set<string>();
      for (const part of this.parts) {
        // A statement twice in one write: the second Parse of a name would fail (it exists by
        // then), and pg marks a name prepared only once answered, so the second runs unnamed.
        if (part.name && !prepared[part.name] && parsedHere.has(part.name)) part.name = undefined;
        if (part.name && !prepared[part.name]) parsedHere.add(part.name);
        if (!(part.name && prepared[part.name])) this.parsing.add(part);
        part.prepare(withoutSync);
        // A value pg cannot encode fails the part after its Parse was sent.
        if (this.outcomes[this.parts.indexOf(part)]) {
          if (part.name && this.parsing.has(part)) this.preparedUnknown = true;
          break;
        }
      }
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
  }

  private get part(): PgQuery {
    return this.parts[this.current];
  }

  /** The part has answered: its statement is prepared on the connection, if it has a name. */
  private answered(connection: PgConnection): void {
    const part = this.part;
    if (part.name && this.parsing.has(part)) connection.parsedStatements[part.name] = part.text;
    this.current++;
  }

  handleRowDescription(msg: unknown): void {
    this.part.handleRowDescription(msg);
  }

  handleDataRow(msg: unknown): void {
    this.part.handleDataRow(msg);
  }

  handleCommandComplete(msg: unknown, connection: PgConnection): void {
    this.part.handleCommandComplete(msg, connection);
    this.answered(connection);
  }

  handleEmptyQuery(connection: PgConnection): void {
    this.answered(connection);
  }

  handlePortalSuspended(): void {
    // Parts are executed without a row limit, so PostgreSQL never suspends their portals.
  }

  handleCopyInResponse(connection: { sendCopyFail(msg: string): void }): void {
    connection.sendCopyFail('COPY is not supported in a pipeline');
  }

  handleCopyData(): void {}

  /**
   * PostgreSQL failed the current part and skipped the rest; pg sends nothing more here. The
   * parts before it ran: their results stand (their implicit transaction is rolled back, or, in
   * a transaction block, the block is now failed, as the failed part's error says).
   */
  handleError(err: Error, connection: PgConnection): void {
    const failed = this.part;
    if (failed && failed.name && this.parsing.has(failed)) {
      // A write refused by a read-only transaction was refused when it ran: its Parse succeeded.
      if (refusedAsReadOnly(err)) connection.parsedStatements[failed.name] = failed.text;
      else this.preparedUnknown = true;
    }
    for (const part of this.parts.slice(0, this.current)) part.handleReadyForQuery(connection);
    for (let i = this.current; i < this.parts.length; i++) this.outcomes[i] ??= { error: err };
    this.settle(this.outcomes);
  }

  handleReadyForQuery(connection: PgConnection): void {
    for (const part of this.parts.slice(0, this.current)) part.handleReadyForQuery(connection);
    // A part pg could not encode, and the parts after it, never reached PostgreSQL.
    const unsent = this.outcomes.find((o) => o && 'error' in o) as { error: Error } | undefined;
    for (let i = this.current; i < this.parts.length; i++)
      this.outcomes[i] ??= { error: unsent?.error ?? new Error('the statement was not sent') };
    this.settle(this.outcomes);
  }
}
