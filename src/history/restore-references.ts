import type { EntityManager } from '@mikro-orm/core';
import { actorOf } from '../db/tenancy';
import { problems, type Problem } from '../errors';
import { foreignKeysOf, rowExists, type Reference } from '../db/foreign-key-repository';

const referencesByTable = new Map<string, Reference[]>();

/**
 * The table's references as its foreign keys declare them (each `(tenant_id, x_id) -> x
 * (tenant_id, id)`, test/security/integrity.test.ts): read from the catalog once per table, so a
 * restore checks exactly what the database would refuse.
 */
async function referencesOf(em: EntityManager, table: string): Promise<Reference[]> {
  let refs = referencesByTable.get(table);
  if (!refs) {
    refs = await foreignKeysOf(em, table);
    referencesByTable.set(table, refs);
  }
  return refs;
}

/**
 * Checks that every record a restored record refers to still exists in the tenant; each one that
 * does not is named in one 409 (`epicId: refers to Epic <id>, which does not exist: restore it
 * first`), as a restore must not bring back a broken reference.
 */
export async function checkRestoredReferences(
  em: EntityManager,
  entityName: string,
  data: Record<string, unknown>,
): Promise<void> {
  const metadata = em.getMetadata();
  const meta = metadata.get(entityName);
  const tenantId = actorOf(em)?.tenantId;
  if (!tenantId) throw new Error('restore without a tenant');
  const missing: Problem[] = [];
  for (const ref of await referencesOf(em, meta.tableName)) {
    const prop = meta.props.find((p) => p.fieldNames?.[0] === ref.column);
    const value = prop ? data[prop.name] : undefined;
    if (value === null || value === undefined) continue;
    if (await rowExists(em, ref.target, tenantId, String(value))) continue;
    const target =
      Object.values(metadata.getAll()).find((m) => m.tableName === ref.target)?.className ?? ref.target;
    missing.push({
      field: prop!.name,
      reason: `refers to ${target} ${String(value)}, which does not exist: restore it first`,
    });
  }
  if (missing.length) throw problems(409, missing);
}
