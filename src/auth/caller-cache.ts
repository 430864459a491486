import type { Caller } from '../context';

/** The channel the caller triggers NOTIFY (Migration20261123140000_caller_cache). */
export const CALLER_CHANNEL = 'bms_caller';
/** The payload that says every tenant's callers may have changed (a TRUNCATE). */
const EVERY_TENANT = '*';

/** The caller authentication derived (user, permissions, access), and the tenant's version it was read at. */
export interface CachedCaller {
  version: string;
  /**
   * Frozen, and shared by every request of the caller until the version moves: a hit costs a
   * map lookup, not a hydration and a permission set per request.
   */
  caller: Readonly<Caller>;
}

/**
 * Callers (user, role permissions) of this process, kept between requests so that a request
 * whose caller is known sends one statement fewer. Keyed by tenant and user, so no entry
 * answers for another tenant; bounded, dropping the least recently used entry.
 *
 * An entry is used only when the tenant's version, read in the same round trip as the request
 * transaction's settings, is the one it was read at: any change to the tenant's users, roles or
 * the tenant itself bumps that version in the changing transaction, so the next request sees
 * the change even if its notification has not arrived. The notifications (fed in by `notified`
 * from the process's listener) only drop entries early, to free their memory.
 */
export class CallerCache {
  /** Insertion order is recency: a hit moves its entry to the end. */
  private readonly entries = new Map<string, CachedCaller>();

  constructor(readonly limit = 10_000) {}

  get size(): number {
    return this.entries.size;
  }

  /** The entry for the caller, whatever its version (the caller checks it). */
  peek(tenantId: string, userId: string): CachedCaller | undefined {
    return this.entries.get(keyOf(tenantId, userId));
  }

  /** Marks the entry as just used. */
  touch(tenantId: string, userId: string, entry: CachedCaller): void {
    const key = keyOf(tenantId, userId);
    this.entries.delete(key);
    this.entries.set(key, entry);
  }

  set(tenantId: string, userId: string, entry: CachedCaller): void {
    this.touch(tenantId, userId, entry);
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(tenantId: string, userId: string): void {
    this.entries.delete(keyOf(tenantId, userId));
  }

  /** A notification on CALLER_CHANNEL: the tenant's id, or `*` for every tenant. */
  notified(payload: string): void {
    if (payload === EVERY_TENANT) return this.clear();
    const prefix = keyOf(payload, '');
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  /** After the listening connection was lost: notifications may have been missed. */
  clear(): void {
    this.entries.clear();
  }
}

const keyOf = (tenantId: string, userId: string) => `${tenantId}/${userId}`;
