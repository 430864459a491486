import type { EntityManager } from '@mikro-orm/core';
import { queryRows } from '../db/orm-bypass/statements';

/** What a download of a tenant export's bundle reads of the export. */
export interface ExportBundleRow {
  status: string;
  archive_key: string | null;
  /** bigint, as text. */
  archive_size: string | null;
  archive_sha256: string | null;
}

/** The export `id` of the tenant, as its bundle's download needs it, or undefined. */
export async function exportBundleRow(
  em: EntityManager,
  tenantId: string,
  id: string,
): Promise<ExportBundleRow | undefined> {
  const [row] = await queryRows<ExportBundleRow>(
    em,
    `select status, archive_key, archive_size, archive_sha256 from tenant_export where tenant_id = $1 and id = $2`,
    [tenantId, id],
  );
  return row;
}
