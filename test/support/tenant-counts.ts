import { MemoryStore } from 'express-rate-limit';
import type { RateLimits } from '../../src/http/hardening';

/**
 * Rate limits that refuse nothing but count, per tenant, the requests the tenant limiter was
 * asked about: a request run again (a caller that changed, a known query handed to Apollo) must
 * be counted once.
 */
export function countedTenantLimits(): { rateLimits: RateLimits; hits: (tenantId: string) => number } {
  const counts = new Map<string, number>();
  class CountingStore extends MemoryStore {
    override async increment(key: string) {
      counts.set(key, (counts.get(key) ?? 0) + 1);
      return super.increment(key);
    }
  }
  return {
    rateLimits: {
      perCredential: 0,
      perTenant: 1_000_000,
      windowMs: 60_000,
      store: () => new CountingStore(),
    },
    hits: (tenantId) => counts.get(`tenant:${tenantId}`) ?? 0,
  };
}
