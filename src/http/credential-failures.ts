import type { Request, Response } from 'express';
import { ipKeyGenerator, MemoryStore, type Options, type Store } from 'express-rate-limit';
import { API_KEY_PREFIX, parseApiKey } from '../auth/api-keys';
import { AppError, titleFor } from '../errors';
import { keyedByText, secondsLeft, type RateLimits, type WindowCount } from './hardening';

/** The failure window when RateLimits leaves it unset. */
export const FAILURE_WINDOW_MS = 15 * 60_000;

/**
 * Refused credentials, counted per client address and per API key id: guessing secrets or
 * trying stolen tokens from one address, or one key's secret from many, meets a 429 with
 * `Retry-After` once the count of the failure window reaches its limit, and the credential is
 * not checked at all until the window ends. The counts live on express-rate-limit's stores, as
 * the request limits' do (hardening.ts): Redis when the processes share one, shared by all.
 *
 * Requests whose credential is accepted are not counted and not slowed: a credential this
 * process accepted lately (the header itself, kept in memory as the verified tokens are) skips
 * the check, so a client that authenticates costs the stores nothing. Only a credential not seen
 * to work, before it is checked, asks the store (one read per limit), and only a refusal
 * writes. A request without a credential is no attempt: it is not counted.
 */
export interface CredentialFailures {
  /** Throws a 429 while the request's address or key has failed too often in the window. */
  check(req: Request, res: Response): Promise<void>;
  /** Counts a request whose credential was refused. */
  refused(req: Request): Promise<void>;
  /** Remembers a credential that was accepted. */
  accepted(req: Request): void;
}

const NONE: CredentialFailures = {
  check: async () => undefined,
  refused: async () => undefined,
  accepted: () => undefined,
};

export function credentialFailures(limits: RateLimits): CredentialFailures {
  const perAddress = limits.failuresPerAddress ?? 0;
  const perKey = limits.failuresPerKey ?? 0;
  if (!perAddress && !perKey) return NONE;
  const windowMs = limits.failureWindowMs ?? FAILURE_WINDOW_MS;
  const store: Store = limits.store?.('failure') ?? new MemoryStore();
  void Promise.resolve(store.init?.({ windowMs } as Options)).catch(() => undefined);
  // A shared store that fails lets requests through, as the request limits do (hardening.ts).
  const passOnError = Boolean(limits.store);
  const accepted = keyedByText<boolean>(10_000, 4 * 1024 * 1024);

  /** The counters a request's attempt falls under, each with its limit. */
  const countersOf = (req: Request, header: string): [key: string, limit: number][] => {
    const counters: [string, number][] = [];
    if (perAddress) counters.push([`address:${ipKeyGenerator(req.ip ?? '')}`, perAddress]);
    const token = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
    const key = perKey && token?.startsWith(API_KEY_PREFIX) ? parseApiKey(token) : undefined;
    if (key) counters.push([`key:${key.keyId}`, perKey]);
    return counters;
  };
  const guarded = async <T>(work: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await work();
    } catch (err) {
      if (passOnError) return undefined;
      throw err;
    }
  };

  return {
    async check(req, res) {
      const header = req.headers.authorization;
      if (!header || accepted.has(header)) return;
      for (const [key, limit] of countersOf(req, header)) {
        const count = (await guarded(async () => store.get?.(key))) as WindowCount | undefined;
        if (count && count.totalHits >= limit) {
          const wait = Math.max(1, secondsLeft(count, windowMs));
          res.setHeader('Retry-After', String(wait));
          throw new AppError(
            429,
            titleFor(429),
            `too many refused credentials from this ${key.startsWith('key:') ? 'API key' : 'address'}; retry after ${wait} seconds`,
          );
        }
      }
    },
    async refused(req) {
      const header = req.headers.authorization;
      if (!header) return;
      accepted.delete(header);
      for (const [key] of countersOf(req, header)) await guarded(async () => store.increment(key));
    },
    accepted(req) {
      const header = req.headers.authorization;
      if (header) accepted.set(header, true);
    },
  };
}
