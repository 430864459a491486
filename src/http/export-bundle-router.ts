import express from 'express';
import { endTenantTransaction } from '../db/tenant-transaction';
import { TenantExport } from '../entities/tenant-export';
import { conflict, notFound } from '../errors';
import type { FileStorage } from '../files/storage';
import { isUuid } from '../limits';
import type { Logger } from '../logger';
import { checkOf, superAdminOnly } from '../permissions/rules';
import { expressPath, routeName, type Download } from './transfer-route';
import type { ContextFor } from './context-for';
import { sendStoredBytes } from './send-file';
import { sendCaught } from './send-error';

/** The download of a finished tenant export's bundle, as the document and the router know it. */
export const exportBundleTransfer: Download = {
  method: 'GET',
  path: '/tenant-exports/{id}/bundle',
  operationId: 'downloadTenantExportBundle',
  id: 'Id of the tenant export.',
  what: "a finished tenant export's bundle",
  more: " The bundle is one gzip-compressed tar archive (`application/gzip`) of the export's folder (`manifest.json`, `tenant.ndjson`, `records/`, `files/`: docs/operations.md); its `ETag` is the archive's SHA-256, as the export reports it. For the tenant's super-admin only (403 to anyone else); 409 while the export is not DONE; 404 for an export of another tenant.",
  refusals: ['Forbidden', 'Conflict'],
};

/**
 * A finished tenant export's bundle, as the archive the export job stored: the tenant's whole
 * data, so for its super-admin alone; any other tenant's export id is a 404 like a file's. It is
 * downloaded from the file store as a stored file is (send-file.ts).
 */
export function exportBundleRouter(
  store: FileStorage,
  contextFor: ContextFor,
  logger: Logger,
): express.Router {
  const router = express.Router();
  router.get(expressPath(exportBundleTransfer), async (req, res) => {
    res.locals.route = routeName(exportBundleTransfer);
    try {
      const ctx = await contextFor(req, res);
      const allowed = checkOf(superAdminOnly)!(ctx);
      if (allowed !== true) throw allowed;
      const id = String(req.params.id);
      // Read past the identity map, so the read-only request still commits without a flush.
      const row = isUuid(id)
        ? await ctx.em.findOne(
            TenantExport,
            { tenantId: ctx.caller!.tenantId, id },
            { fields: ['status', 'archiveKey', 'archiveSize', 'archiveSha256'], disableIdentityMap: true },
          )
        : null;
      await endTenantTransaction(ctx.em, true);
      if (!row) throw notFound(`there is no tenant export ${id}`);
      if (row.status !== 'DONE')
        throw conflict(`the export ${id} is ${row.status}: its bundle is not written yet`);
      // A finished export whose archive is not in this store (one imported from another deployment).
      if (!row.archiveKey || (await store.backend.size(row.archiveKey)) === null)
        throw notFound(`the bundle of the export ${id} is not stored here`);
      await sendStoredBytes(req, res, store, {
        name: `tenant-export-${id}.tar.gz`,
        type: 'application/gzip',
        size: Number(row.archiveSize),
        sha256: row.archiveSha256 ?? null,
        storageKey: row.archiveKey,
      });
    } catch (err) {
      if (res.headersSent) res.destroy(err as Error);
      else sendCaught(res, err, logger);
    }
  });
  return router;
}
