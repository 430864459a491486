import type { DomainModule } from '../modules';
import { appModules } from '../app-modules';
import { exportBundleTransfer } from '../http/export-bundle-router';
import type { TransferRoute } from '../http/transfer-route';
import type { RestRoute } from './route';

/** The REST rows of the modules given, in their order. */
export const restTableOf = (modules: readonly DomainModule[]): RestRoute[] =>
  modules.flatMap((m) => m.routes);

/** Every REST operation of the service, one row each (paths below /api/v1). */
export const restTable: RestRoute[] = restTableOf(appModules);

/**
 * The uploads and downloads of the modules given (paths below /api/v1), after the kernel's: the
 * operations on a file's bytes that routers of their own serve, documented from these.
 */
export const transferTableOf = (modules: readonly DomainModule[]): TransferRoute[] => [
  exportBundleTransfer,
  ...modules.flatMap((m) => m.transfers ?? []),
];

/** Every upload and download of the service. */
export const transferTable: TransferRoute[] = transferTableOf(appModules);
