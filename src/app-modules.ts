import { useWriteHooks } from './family/write-hooks';
import type { DomainModule } from './modules';
import { referenceModule } from './domain/reference';
import { accessModule } from './domain/access';
import { configuratorModule } from './domain/configurator';
import { financeModule } from './domain/finance';
import { hrModule } from './domain/hr';
import { crmModule } from './domain/crm';
import { inventoryModule } from './domain/inventory';
import { notificationsModule } from './domain/notifications';
import { webhooksModule } from './domain/webhooks';
import { liveModule } from './domain/live';
import { filesModule } from './domain/files';
import { historyModule } from './domain/history';

/**
 * The domains the application serves. Their order is the order of the schema's fields and
 * types and of the REST table, so the published schema and document do not move when a module
 * is composed differently.
 */
export const appModules: readonly DomainModule[] = [
  referenceModule,
  accessModule,
  configuratorModule,
  financeModule,
  hrModule,
  crmModule,
  inventoryModule,
  notificationsModule,
  webhooksModule,
  liveModule,
  filesModule,
  historyModule,
];

/** Every resource group that has the standard family. */
export const appGroups = appModules.flatMap((m) => m.groups);

/** Every module's background work, which each service process runs (src/serve.ts). */
export const appJobs = appModules.flatMap((m) => m.jobs ?? []);

/**
 * Every module's scheduled jobs (src/jobs/job.ts), which the scheduler of each service process
 * runs beside the kernel's, once per period across them all.
 */
export const appScheduled = appModules.flatMap((m) => m.scheduled ?? []);

/**
 * What the modules add to every record write, installed once the list is composed: whatever
 * loads the modules' groups loads this list, so no family write runs without the hooks.
 */
useWriteHooks(appModules.flatMap((m) => m.writeHooks ?? []));
