import { PostgreSqlConnection, PostgreSqlKnexDialect, type Knex } from '@mikro-orm/postgresql';
import type { ClientConfig } from 'pg';
import { parseDatabaseUrl } from '../database-url';
import { sessionsFor } from '../sessions';

/** A connection knex's pool holds: marked disposed once lost, so the pool's validation drops it. */
interface PooledClient {
  __knex__disposed?: unknown;
}

/**
 * MikroORM's PostgreSQL connection with its pool's sessions opened by `sessions.ts`: each new
 * connection of knex's pool tries the hosts of a multi-host DATABASE_URL, keeps only the session
 * the URL asks for, and carries an 'error' listener for its whole life. MikroORM itself reads the
 * URL with `new URL`, which takes one host: it is shown the first, for the user, password and
 * database it reads from it.
 */
export class SessionConnection extends PostgreSqlConnection {
  /** `closing` while the ORM closes: from then on a connection asked for is refused at once. */
  private readonly state = { closing: false };

  override connect(): void | Promise<void> {
    this.state.closing = false;
    return super.connect();
  }

  override async close(force?: boolean): Promise<void> {
    this.state.closing = true;
    await super.close(force);
  }

  override createKnex(): void {
    // Not reset here: a close makes the knex client it destroys when there was none yet.
    const state = this.state;
    const sessions = sessionsFor(this.config.get('clientUrl')!);
    // knex's pg dialect opens each pool connection in `_acquireOnlyConnection` (a `new
    // Client(connectionSettings)`, an 'error' and an 'end' listener marking it disposed, then
    // connect): here the same, through the sessions.
    class SessionDialect extends PostgreSqlKnexDialect {
      // A pool being destroyed still queues a request for a connection and answers it only at
      // knex's acquire timeout, a minute later: a start-up step that asks for one after a stop
      // (the migrator's next transaction) held the process that long.
      acquireConnection(): Promise<unknown> {
        if (state.closing) return Promise.reject(new Error('the database connection is closed'));
        return super.acquireConnection();
      }

      _acquireOnlyConnection(): Promise<unknown> {
        const settings = (this as unknown as { connectionSettings: ClientConfig }).connectionSettings;
        let client: PooledClient | undefined;
        let lostEarly: unknown;
        return sessions
          .open(settings, (err) => {
            if (client) client.__knex__disposed ??= err;
            else lostEarly = err;
          })
          .then((opened) => {
            client = opened as unknown as PooledClient;
            if (lostEarly) client.__knex__disposed = lostEarly;
            return opened;
          });
      }
    }
    // MikroORM passes the dialect class to knex as `client`, typed as a client name.
    this.client = this.createKnexClient(SessionDialect as unknown as string);
    (this.client.client as { ormConfig?: unknown }).ormConfig = this.config;
    this.connected = true;
  }

  override getConnectionOptions(): Knex.PgConnectionConfig {
    const given = this.options.clientUrl;
    if (!given) return super.getConnectionOptions();
    const target = parseDatabaseUrl(given);
    this.options.clientUrl = target.urlOf(target.hosts[0]);
    try {
      return super.getConnectionOptions();
    } finally {
      this.options.clientUrl = given;
    }
  }

  /** The hosts and the database, as MikroORM's start-up line shows them (never the password). */
  override getClientUrl(): string {
    return `postgresql://${parseDatabaseUrl(this.config.get('clientUrl')!).label}`;
  }
}
