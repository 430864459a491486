/**
 * The event worker's session statements (store.ts runs them): the settings of its transactions,
 * which its tables' row-level security policies read, and the text of a one-trip transaction.
 */

/**
 * A worker transaction's settings: the event worker (whose policies see the outbox and the
 * deliveries of every tenant), within the tenant `?` ('' for none).
 */
export const WORKER_SETTINGS = `select set_config('app.worker', 'events', true), set_config('app.tenant_id', ?, true)`;

/**
 * One trip's text: `before` (outside the transaction: PREPAREs), then the transaction with the
 * worker's settings (within the tenant written as the literal `tenant`, and without waiting for
 * the WAL flush unless a synchronous standby is set) and `statements`, and its commit. Its
 * results are those of `before`, the begin, the settings, each statement, the commit, in order.
 */
export const tripText = (before: readonly string[], tenant: string, statements: readonly string[]): string =>
  `${before.map((p) => `${p};\n`).join('')}begin; select set_config('app.worker', 'events', true),
         set_config('app.tenant_id', ${tenant}, true), set_config('synchronous_commit',
           case current_setting('synchronous_standby_names') when '' then 'off'
           else current_setting('synchronous_commit') end, true);
       ${statements.join(';\n')};
       commit;`;
