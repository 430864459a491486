import type { EntityManager } from '@mikro-orm/core';
import DataLoader from 'dataloader';
import type { User } from './entities/user';
import type { EventEnvelope } from './events/envelope';
import type { Notification } from './domain/notifications/entities/notification';
import type { FileStore } from './domain/files/stored-files';

/** The authenticated caller of one request. */
export interface Caller {
  user: User;
  userId: string;
  tenantId: string;
  email: string;
  permissions: ReadonlySet<string>;
  superAdmin: boolean;
  hasFullAccess: boolean;
  projectAccess: readonly string[];
  subsidiaryAccess: readonly string[];
  /** The tenant's modules that are switched off (Tenant.scopes): their operations are refused. */
  modulesOff?: ReadonlySet<string>;
  /** Set when the credential is an API key: the caller is the key, within its creator's rights. */
  apiKey?: Readonly<{ id: string; name: string; secretHash: Buffer; expiresAt: Date | null }>;
}

/** Per-request DataLoaders, made on first use and dropped with the request. */
export class Loaders {
  private readonly loaders = new Map<string, DataLoader<any, any>>();

  get<K, V>(key: string, batch: (keys: readonly K[]) => Promise<(V | Error)[]>): DataLoader<K, V> {
    let loader = this.loaders.get(key);
    if (!loader) {
      loader = new DataLoader<K, V>(batch, { maxBatchSize: 1000 });
      this.loaders.set(key, loader);
    }
    return loader as DataLoader<K, V>;
  }

  private readonly derived = new Map<string, unknown>();

  /**
   * A value derived once per request under `key`: several fields of one record (a feature's task
   * count, completed count and progress) read the same one. Cached for the request, as the
   * loaders' values are.
   */
  once<V>(key: string, make: () => V): V {
    if (this.derived.has(key)) return this.derived.get(key) as V;
    const value = make();
    this.derived.set(key, value);
    return value;
  }
}

/**
 * An answer as it is sent and stored for an Idempotency-Key (http/idempotency.ts): its body is
 * text, or the text's UTF-8 bytes (jsonBytes).
 */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

/** A key this request holds: `record` stores its answer in the request's transaction. */
export interface HeldKey {
  record(reply: Reply): Promise<void>;
}

/** What a subscription reads from its WebSocket session (events/live.ts serves it). */
/** What the notifications stream yields: the notifications module's entity, named here for the live hub. */
export type LiveNotification = Notification;

export interface LiveStreams {
  /** The changes to records the caller may read, of the named event types (all when none). */
  records(ctx: Context, types: readonly string[] | null | undefined): AsyncIterable<EventEnvelope>;
  /** The caller's notifications as they arrive. */
  notifications(): AsyncIterable<Notification>;
  /**
   * Runs the execution of a payload read for this caller alone in a tenant transaction of theirs
   * (the fields that read, `events` and `history`, need one); undefined for any other payload.
   */
  executeOwn<R>(payload: object, execute: (ctx: Context) => Promise<R>): Promise<R> | undefined;
}

/** What every resolver receives: the request's ORM fork, caller and loaders. */
export interface Context {
  /** A fork of the ORM scoped to the caller's tenant; null-tenant forks fail closed. */
  em: EntityManager;
  caller: Caller | null;
  loaders: Loaders;
  requestId: string;
  /** Stored files (absent in contexts that serve no file: subscriptions, tools). */
  files?: FileStore;
  /** The Idempotency-Key a GraphQL mutation holds: its answer is stored before the commit. */
  idempotency?: HeldKey;
  /** A provider token's identity (Claims.tokenId): a sign-out it asks for records it. */
  tokenId?: string;
  /** The WebSocket session a subscription runs in (absent over HTTP). */
  live?: LiveStreams;
  /**
   * Set when the context was opened on a remembered caller, not yet checked (auth/authenticate.ts):
   * checks it, and when it had changed rolls the work back and replaces everything in `context`
   * (this one, or a copy of it) with a context read afresh, answering true (what ran must run
   * again).
   */
  renewIfStale?: (context: Context) => Promise<boolean>;
}

/** The caller of a resolver that graphql-shield has already let through. */
export function callerOf(ctx: Context): Caller {
  if (!ctx.caller) throw new Error('resolver reached without a caller: a permission rule is missing');
  return ctx.caller;
}
