import type { MikroORM } from '@mikro-orm/core';
import type { FileBackend } from '../files/backends';
import type { Logger } from '../logger';
import { removeDue } from '../services/tenant-lifecycle';
import { runPeriodically, type Periodic } from './periodic';

export type TenantPurge = Periodic;

/**
 * Removes the deleted tenants whose grace period is over (docs/operations.md, "Tenant life
 * cycle"), once at start and then every `intervalMs`, in every process: a tenant another process
 * removed first is simply no longer found.
 */
export function startTenantPurge(
  orm: MikroORM,
  backend: FileBackend,
  logger: Logger,
  intervalMs = 60 * 60_000,
): TenantPurge {
  return runPeriodically(
    intervalMs,
    logger,
    'could not remove the deleted tenants due; trying again later',
    async () => {
      for (const r of await removeDue(orm, backend))
        logger.info(r, 'deleted tenant removed: its grace period is over');
    },
  );
}
