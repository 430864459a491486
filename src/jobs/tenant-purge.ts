import type { MikroORM } from '@mikro-orm/core';
import type { FileBackend } from '../files/backends';
import type { Logger } from '../logger';
import { removeDue } from '../services/tenant-lifecycle';

export interface TenantPurge {
  stop(): Promise<void>;
}

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
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = removeDue(orm, backend).then(
      (removed) => {
        for (const r of removed) logger.info(r, 'deleted tenant removed: its grace period is over');
      },
      (err) => logger.warn({ err }, 'could not remove the deleted tenants due; trying again later'),
    );
  };
  run();
  const timer = setInterval(() => void running.then(run), intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
