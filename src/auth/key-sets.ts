import { createLocalJWKSet, type JSONWebKeySet, type JWK, type JWTVerifyGetKey } from 'jose';

/**
 * Fetching an OpenID provider's discovery document and key set, and keeping the keys.
 *
 * jose verifies signatures against a local key set (`createLocalJWKSet`); the fetching and caching
 * are ours rather than jose's `createRemoteJWKSet`, because its remote set refuses every token once
 * its cache has aged and the provider does not answer, while the service must keep serving with
 * the keys it holds while the provider is down. A stale set is refreshed in the background (the
 * request goes on with the keys held); an unknown `kid` refetches at once, at most once per
 * cooldown, so a flood of tokens with made-up key ids cannot turn into a flood of fetches.
 */

/** The signature algorithms accepted from an identity provider (HS256 is the service's own). */
export const PROVIDER_ALGORITHMS = ['RS256', 'ES256', 'EdDSA'];

export interface KeySetOptions {
  /** After this long, the set is refreshed in the background on its next use. */
  maxAgeMs: number;
  /** Least time between two fetches of one set caused by unknown key ids or age. */
  cooldownMs: number;
  /** A fetch that takes longer is abandoned. */
  timeoutMs: number;
  /** A larger document is refused. */
  maxBytes: number;
}

export const DEFAULT_KEY_SET_OPTIONS: KeySetOptions = {
  maxAgeMs: 10 * 60_000,
  cooldownMs: 30_000,
  timeoutMs: 5_000,
  maxBytes: 64 * 1024,
};

/** Why a provider's document could not be used; its message names the problem. */
export class ProviderProblem extends Error {}

const MAX_KEYS = 50;

/** A JSON document from a provider: bounded in time and size, no redirects followed. */
export async function fetchProviderJson(url: string, options: KeySetOptions, what: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      redirect: 'error',
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (err) {
    const reason =
      (err as Error).name === 'TimeoutError' ? 'it did not answer in time' : 'it could not be reached';
    throw new ProviderProblem(`the ${what} at ${url} could not be fetched: ${reason}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new ProviderProblem(`the ${what} at ${url} could not be fetched: HTTP ${response.status}`);
  }
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > options.maxBytes) {
    await response.body?.cancel();
    throw new ProviderProblem(`the ${what} at ${url} is larger than ${options.maxBytes} bytes`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > options.maxBytes)
      throw new ProviderProblem(`the ${what} at ${url} is larger than ${options.maxBytes} bytes`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new ProviderProblem(`the ${what} at ${url} is not JSON`);
  }
}

const usable = (key: JWK) =>
  (key.kty === 'RSA' && typeof key.n === 'string') ||
  (key.kty === 'EC' && key.crv === 'P-256') ||
  (key.kty === 'OKP' && key.crv === 'Ed25519');

/**
 * The signing keys of a key set document. Encryption keys (`use: enc`) are left out; a symmetric
 * or private key, a malformed set, or one without a key the service can verify with is refused.
 */
export function signingKeys(document: unknown, url: string): JSONWebKeySet {
  const keys = (document as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new ProviderProblem(`the key set at ${url} has no "keys" list`);
  if (keys.length > MAX_KEYS)
    throw new ProviderProblem(`the key set at ${url} holds more than ${MAX_KEYS} keys`);
  const signing: JWK[] = [];
  for (const key of keys as JWK[]) {
    if (typeof key !== 'object' || key === null || typeof key.kty !== 'string')
      throw new ProviderProblem(`the key set at ${url} holds an entry that is not a key`);
    if (key.kty === 'oct')
      throw new ProviderProblem(`the key set at ${url} holds a symmetric key, which is refused`);
    if ('d' in key)
      throw new ProviderProblem(`the key set at ${url} publishes a private key, which is refused`);
    if (key.use === 'enc') continue;
    if (usable(key)) signing.push(key);
    else
      throw new ProviderProblem(
        `the key set at ${url} holds a key of a type the service does not accept (${key.kty}${key.crv ? ` ${key.crv}` : ''}); accepted: RSA, EC P-256, OKP Ed25519`,
      );
  }
  if (signing.length === 0) throw new ProviderProblem(`the key set at ${url} holds no signing key`);
  return { keys: signing };
}

/** One provider's keys, as last fetched. */
export class KeySet {
  private local?: JWTVerifyGetKey;
  private text = '';
  private fetchedAt = 0;
  private attemptedAt = 0;
  private pending?: Promise<void>;
  /** Moves whenever the keys change, so a token verified with a key since removed is checked again. */
  generation = 0;

  constructor(
    readonly url: string,
    private readonly options: KeySetOptions,
    initial?: JSONWebKeySet,
  ) {
    if (initial) this.adopt(initial);
  }

  private adopt(keys: JSONWebKeySet): void {
    const text = JSON.stringify(keys);
    if (text !== this.text) {
      this.text = text;
      this.local = createLocalJWKSet(keys);
      this.generation += 1;
    }
    this.fetchedAt = Date.now();
  }

  /** Fetches the set now (one fetch at a time); a failure keeps the keys held. */
  refresh(): Promise<void> {
    this.attemptedAt = Date.now();
    this.pending ??= fetchProviderJson(this.url, this.options, 'key set')
      .then((doc) => this.adopt(signingKeys(doc, this.url)))
      .finally(() => (this.pending = undefined));
    return this.pending;
  }

  private mayFetch(): boolean {
    return Date.now() - this.attemptedAt >= this.options.cooldownMs;
  }

  /**
   * Refreshes an aged set in the background: the provider being slow or down must not hold the
   * request, which goes on with the keys held. Called on every use, a token verified before included.
   */
  freshen(): void {
    if (this.local && Date.now() - this.fetchedAt > this.options.maxAgeMs && this.mayFetch())
      this.refresh().catch(() => undefined);
  }

  /** The key for a token's header, for jose's jwtVerify. */
  readonly getKey: JWTVerifyGetKey = async (header, token) => {
    if (!this.local) {
      if (!this.mayFetch()) throw new ProviderProblem("the issuer's keys could not be fetched");
      await this.refresh().catch(() => {
        throw new ProviderProblem("the issuer's keys could not be fetched");
      });
    } else this.freshen();
    try {
      return await this.local!(header, token);
    } catch (err) {
      if ((err as { code?: string }).code !== 'ERR_JWKS_NO_MATCHING_KEY' || !this.mayFetch()) throw err;
      await this.refresh().catch(() => undefined);
      return this.local!(header, token);
    }
  };
}
