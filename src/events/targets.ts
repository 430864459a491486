import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where webhooks may go: https URLs whose host is a public unicast address. Loopback, private,
 * link-local (which holds the cloud metadata address), carrier-grade NAT, multicast, reserved and
 * the like are refused, at registration and again at delivery, where the name is resolved by the
 * lookup the request connects with (so a name cannot resolve to a public address when checked and
 * a private one when used). `allowPrivate` (WEBHOOK_ALLOW_PRIVATE_TARGETS) lifts both rules.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** Why `url` may not be a webhook target, or undefined when it may (the name is not resolved here). */
export function urlProblem(url: string, allowPrivate: boolean): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'url must be an absolute URL';
  }
  if (parsed.protocol !== 'https:' && !(allowPrivate && parsed.protocol === 'http:'))
    return 'url must use https';
  if (parsed.username || parsed.password) return 'url must not carry credentials';
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && ipaddr.isValid(host) && !isPublicAddress(host))
    return `url must point at a public address, not ${host}`;
  return undefined;
}

/** Resolves the URL's host and refuses it unless every address is public (registration). */
export async function resolvedUrlProblem(url: string, allowPrivate: boolean): Promise<string | undefined> {
  const problem = urlProblem(url, allowPrivate);
  if (problem || allowPrivate) return problem;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) return undefined;
  try {
    const addresses = await dns.promises.lookup(host, { all: true });
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    return bad ? `url must point at a public address; ${host} resolves to ${bad.address}` : undefined;
  } catch {
    return `url's host ${host} cannot be resolved`;
  }
}

/** A lookup for http.request that refuses names resolving to non-public addresses (delivery). */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const bad = allowPrivate ? undefined : addresses.find((a) => !isPublicAddress(a.address));
      if (bad || addresses.length === 0) {
        const refused = new Error(
          `refused: ${hostname} resolves to ${bad?.address ?? 'nothing'}, not a public address`,
        ) as NodeJS.ErrnoException;
        refused.code = 'EADDRNOTPUBLIC';
        return callback(refused, '', 4);
      }
      if (options.all)
        return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
