import { LockMode, type EntityManager } from '@mikro-orm/core';
import { badRequest } from '../../errors';
import { isUuid } from '../../limits';
import { ConfiguratorType } from './entities/configurator-type';
import { TypeProductCoverage } from './entities/type-product-coverage';
import { applyTypeTotals, deriveCoverageFigures, staticModelStats } from './coverage-figures';
import { staticModelVariants } from './decision-trees';

/** Runs `work` in a transaction of its own within the job's tenant (see queue.ts `asWorker`). */
export type TenantWork = <R>(work: (em: EntityManager) => Promise<R>) => Promise<R>;

/** Coverage rows written per transaction (and per progress report). */
const CHUNK = 200;

/** Share of the progress bar for writing rows; the rest is the stats update. */
const ROWS_SHARE = 90;

/**
 * Calculates the product coverage of one static model of a type: one TypeProductCoverage row
 * per variant of the static model tree (created, or updated with the current name, parameters
 * and model type), then the static model's stats and the type's totals. Rows are written in
 * short transactions of CHUNK variants, so a large model neither holds locks for long nor loses
 * more than a chunk to a failure (a retry picks up the rows already written). Rows of variants
 * the tree no longer produces are kept (they may carry assets and product links) but no longer
 * counted. Returns a summary for the job's message.
 */
export async function calculateCoverage(
  inTenant: TenantWork,
  typeId: string,
  staticModelId: string,
  onProgress: (percent: number) => Promise<void>,
): Promise<string> {
  const type = await inTenant((em) =>
    isUuid(typeId) ? em.findOne(ConfiguratorType, { id: typeId }) : Promise.resolve(null),
  );
  if (!type) throw badRequest(`type ${typeId} no longer exists`);
  const model = type.staticModels.find((m) => m.id === staticModelId);
  if (!model) throw badRequest(`type ${type.name} has no static model ${staticModelId}`);

  const variants = staticModelVariants(type, model);
  const rows: TypeProductCoverage[] = [];
  let created = 0;

  for (let start = 0; start < variants.length; start += CHUNK) {
    const chunk = variants.slice(start, start + CHUNK);
    await inTenant(async (em) => {
      const existing = await em.find(TypeProductCoverage, {
        typeId: type.id,
        staticModelTreeId: model.id,
        variantId: { $in: chunk.map((v) => v.variantId) },
      });
      const byVariant = new Map(existing.map((c) => [c.variantId, c]));
      for (const variant of chunk) {
        let row = byVariant.get(variant.variantId);
        if (!row) {
          row = em.create(TypeProductCoverage, {
            tenantId: type.tenantId,
            typeId: type.id,
            staticModelTreeId: model.id!,
            variantId: variant.variantId,
          } as never);
          created += 1;
        }
        row.productName = variant.productName;
        row.parameters = variant.parameters;
        row.modelType = (model.type ?? null) as never;
        deriveCoverageFigures(row);
        rows.push(row);
      }
      await em.flush();
    });
    await onProgress(Math.round(((start + chunk.length) / variants.length) * ROWS_SHARE));
  }

  await inTenant(async (em) => {
    // Jobs of other static models of this type may finish at the same moment: the row lock
    // serialises their read-modify-write of the type's staticModels.
    const current = await em.findOne(
      ConfiguratorType,
      { id: type.id },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!current) throw badRequest(`type ${typeId} was deleted during the calculation`);
    const stats = staticModelStats(rows, variants.length, new Date());
    current.staticModels = current.staticModels.map((m) => (m.id === model.id ? { ...m, stats } : m));
    applyTypeTotals(current);
    await em.flush();
  });

  const complete = rows.filter((r) => r.complete).length;
  return `${variants.length} variants of static model ${model.id}: ${created} coverages created, ${variants.length - created} updated, ${complete} complete`;
}
