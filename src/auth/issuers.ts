import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { decodeJwt, errors as joseErrors, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import ipaddr from 'ipaddr.js';
import { unauthorized } from '../errors';
import type { Claims } from './jwt';
import { trustedIssuerRows, type TrustedIssuerRow } from './issuer-repository';
import {
  DEFAULT_KEY_SET_OPTIONS,
  fetchProviderJson,
  KeySet,
  PROVIDER_ALGORITHMS,
  ProviderProblem,
  signingKeys,
  type KeySetOptions,
} from './key-sets';

/** A tenant's trusted issuer as authentication uses it (the `trusted_issuer` row). */
export interface IssuerConfig {
  tenantId: string;
  id: string;
  issuer: string;
  jwksUri: string;
  audiences: string[];
  userClaim: 'email' | 'sub';
  allowedDomains: string[];
  createUsers: boolean;
  createRole: string | null;
}

/** A provider's token, verified: whom it names in which tenant. */
export interface IssuerToken {
  config: IssuerConfig;
  /** The value of the issuer's user claim (an e-mail address, or `sub`). */
  subject: string;
  /** The `email` claim, when the token has one. */
  email?: string;
  iat: number;
  exp: number;
  /** Which token it is: its `jti`, or a digest of the whole token when it has none. */
  id: string;
}

export interface IssuerSettings extends KeySetOptions {
  /** http issuers on a loopback address are accepted only outside production. */
  production: boolean;
}

let settings: IssuerSettings = {
  ...DEFAULT_KEY_SET_OPTIONS,
  production: process.env.NODE_ENV === 'production',
};

/** The settings registration and verification use (set by createApp from its options). */
export const issuerSettings = (): IssuerSettings => settings;
export function useIssuerSettings(next: Partial<IssuerSettings>): void {
  settings = { ...settings, ...next };
  keySets.clear();
}

/** Why an issuer or key-set URL may not be used, or undefined when it may. */
export function providerUrlProblem(url: string, what: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${what} must be an absolute URL`;
  }
  if (parsed.username || parsed.password || parsed.search || parsed.hash)
    return `${what} must not carry credentials, a query or a fragment`;
  if (parsed.protocol === 'https:') return undefined;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const loopback =
    host === 'localhost' || (ipaddr.isValid(host) && ipaddr.process(host).range() === 'loopback');
  if (parsed.protocol === 'http:' && loopback && !settings.production) return undefined;
  return `${what} must use https (http only on a loopback address, outside production)`;
}

/**
 * What registering an issuer needs from its provider: its discovery document (which must name the
 * same issuer) and the signing keys at its `jwks_uri`. Throws ProviderProblem naming what is wrong.
 */
export async function discoverIssuer(
  issuer: string,
): Promise<{ jwksUri: string; keys: JSONWebKeySet; keyTypes: string }> {
  const problem = providerUrlProblem(issuer, 'the issuer URL');
  if (problem) throw new ProviderProblem(problem);
  const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  const doc = (await fetchProviderJson(url, settings, 'discovery document')) as Record<
    string,
    unknown
  > | null;
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    throw new ProviderProblem(`the discovery document at ${url} is not a JSON object`);
  if (doc.issuer !== issuer)
    throw new ProviderProblem(
      `the discovery document at ${url} names the issuer ${JSON.stringify(doc.issuer)}, not ${issuer}`,
    );
  if (typeof doc.jwks_uri !== 'string')
    throw new ProviderProblem(`the discovery document at ${url} has no jwks_uri`);
  const uriProblem = providerUrlProblem(doc.jwks_uri, 'the jwks_uri');
  if (uriProblem) throw new ProviderProblem(uriProblem);
  const keys = signingKeys(await fetchProviderJson(doc.jwks_uri, settings, 'key set'), doc.jwks_uri);
  keySetFor(doc.jwks_uri, keys);
  return { jwksUri: doc.jwks_uri, keys, keyTypes: [...new Set(keys.keys.map((k) => k.kty))].join(',') };
}

/** Key sets by URL, shared by the issuers that publish there. */
const keySets = new Map<string, KeySet>();
function keySetFor(url: string, initial?: JSONWebKeySet): KeySet {
  let set = keySets.get(url);
  if (!set) keySets.set(url, (set = new KeySet(url, settings, initial)));
  return set;
}

const rowOf = (r: TrustedIssuerRow): IssuerConfig => ({
  tenantId: r.tenant_id,
  id: r.id,
  issuer: r.issuer,
  jwksUri: r.jwks_uri,
  audiences: r.audiences,
  userClaim: r.user_claim === 'sub' ? 'sub' : 'email',
  allowedDomains: r.allowed_domains,
  createUsers: r.create_users === true,
  createRole: r.create_role ?? null,
});

const ISSUERS_MAX = 1000;

/**
 * Trusted issuers by URL, read across tenants through `bms_trusted_issuer` (the migration says
 * why a function) and remembered until a change to any tenant's issuers or users is heard on
 * `bms_caller`; unknown issuers are remembered too, so a flood of made-up `iss` values costs one
 * read each at most until the map is full and starts again.
 */
export class TrustedIssuers {
  private readonly byIssuer = new Map<string, Promise<IssuerConfig | null>>();
  /**
   * Tokens verified, with what they say, until they expire or their issuer's keys change; and,
   * once its user is found, the claims the request runs with, so that a token seen before costs
   * a map lookup, as the service's own tokens do.
   */
  private readonly verified = new Map<
    string,
    { token: IssuerToken; keys: KeySet; generation: number; claims?: Claims }
  >();

  private stillValid(token: string) {
    const known = this.verified.get(token);
    if (!known) return undefined;
    known.keys.freshen();
    return known.generation === known.keys.generation && Date.now() < known.token.exp * 1000
      ? known
      : undefined;
  }

  /** The claims of a token verified and resolved to its user before, while that still holds. */
  knownClaims(token: string): Claims | undefined {
    return this.stillValid(token)?.claims;
  }

  /** Remembers the user a verified token resolved to (forgotten with the token). */
  remember(token: string, claims: Claims): Claims {
    const known = this.verified.get(token);
    if (known) known.claims = claims;
    return claims;
  }

  lookup(rootEm: EntityManager, issuer: string): Promise<IssuerConfig | null> {
    let found = this.byIssuer.get(issuer);
    if (!found) {
      if (this.byIssuer.size >= ISSUERS_MAX) this.byIssuer.clear();
      found = trustedIssuerRows(rootEm, issuer).then((rows) => (rows.length === 1 ? rowOf(rows[0]) : null));
      found.catch(() => this.byIssuer.delete(issuer));
      this.byIssuer.set(issuer, found);
    }
    return found;
  }

  /** A change to a tenant's issuers, users or roles (bms_caller): forget what was read. */
  notified(): void {
    this.byIssuer.clear();
    this.verified.clear();
  }

  /** Verifies a provider's token: 401 naming the problem for anything but a good one. */
  async verify(rootEm: EntityManager, token: string): Promise<IssuerToken> {
    const known = this.stillValid(token);
    if (known) return known.token;
    let unverified: JWTPayload;
    try {
      unverified = decodeJwt(token);
    } catch {
      throw unauthorized('the credential is invalid');
    }
    if (typeof unverified.iss !== 'string') throw unauthorized('the credential names no issuer');
    const config = await this.lookup(rootEm, unverified.iss);
    if (!config) throw unauthorized(`the credential's issuer ${unverified.iss} is not trusted here`);
    const keys = keySetFor(config.jwksUri);
    const generation = keys.generation;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys.getKey, {
        algorithms: PROVIDER_ALGORITHMS,
        issuer: config.issuer,
        audience: config.audiences,
        requiredClaims: ['exp'],
      }));
    } catch (err) {
      throw unauthorized(reasonOf(err));
    }
    const subject = payload[config.userClaim];
    if (typeof subject !== 'string' || subject === '')
      throw unauthorized(`the credential lacks its ${config.userClaim} claim`);
    const email = typeof payload.email === 'string' ? payload.email : undefined;
    const verified: IssuerToken = Object.freeze({
      config,
      subject,
      email,
      iat: payload.iat ?? 0,
      exp: payload.exp!,
      id:
        typeof payload.jti === 'string' && payload.jti !== ''
          ? `jti:${payload.jti}`
          : `sha256:${createHash('sha256').update(token).digest('base64url')}`,
    });
    if (this.verified.size >= ISSUERS_MAX * 10) this.verified.delete(this.verified.keys().next().value!);
    // The generation the key was found in: a refetch during the verification moves it.
    this.verified.set(token, { token: verified, keys, generation: Math.max(generation, keys.generation) });
    return verified;
  }
}

function reasonOf(err: unknown): string {
  if (err instanceof ProviderProblem) return err.message;
  if (err instanceof joseErrors.JWTExpired) return 'the credential has expired';
  if (err instanceof joseErrors.JWTClaimValidationFailed) {
    if (err.claim === 'nbf') return 'the credential is not valid yet';
    if (err.claim === 'aud') return 'the credential is not meant for this service (aud)';
    if (err.claim === 'iss') return "the credential's issuer does not match";
    if (err.claim === 'iat') return 'the credential was issued in the future';
    return `the credential's ${err.claim} claim is invalid`;
  }
  if (err instanceof joseErrors.JWKSNoMatchingKey)
    return 'the credential is signed with a key its issuer does not publish';
  if (err instanceof joseErrors.JOSEAlgNotAllowed) return "the credential's algorithm is not accepted";
  return 'the credential is invalid';
}

/** The process's trusted issuers (bms_caller notifications reach it through the live hub's listener). */
export const trustedIssuers = new TrustedIssuers();
