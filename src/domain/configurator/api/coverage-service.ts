import { ConfiguratorType } from '../entities/configurator-type';
import { CoverageJob, CoverageJobPriority, CoverageJobStatus } from '../entities/coverage-job';
import type { TypeProductCoverage } from '../entities/type-product-coverage';
import { Product, ProductType } from '../../reference/entities/product';
import { callerOf, type Context } from '../../../context';
import { badRequest } from '../../../errors';
import { MAX_IDS } from '../../../limits';
import type { SearchInput } from '../../../family/search-input';
import { inTransaction } from '../../../db/transaction';
import { FamilyService } from '../../../family/service';
import { isHigherPriority } from '../coverage-priority';
import { describeJob } from '../coverage-jobs';
import { notifyWork } from '../../../events/work-signals';
import { coverageJobs } from './coverage-jobs';
import { typeProductCoverages } from './type-product-coverages';
import { configuratorTypes } from './types';

const types = new FamilyService(configuratorTypes);
const coverages = new FamilyService(typeProductCoverages);
const jobs = new FamilyService(coverageJobs);

/** The coverages of a type whose product name is one of `names`, in the order the names are given. */
export async function coveragesByNames(
  ctx: Context,
  typeId: string,
  names: readonly string[],
): Promise<TypeProductCoverage[]> {
  if (names.length > MAX_IDS) throw badRequest(`at most ${MAX_IDS} names may be given, got ${names.length}`);
  const type = await types.oneOrFail(ctx, typeId);
  const position = new Map<string, number>();
  names.forEach((name, i) => {
    if (!position.has(name)) position.set(name, i);
  });
  if (position.size === 0) return [];
  const rows = await coverages.list(ctx, { typeId: type.id, productName: { $in: [...position.keys()] } });
  // Array.prototype.sort is stable: rows of one name keep the list's oldest-first order.
  return rows.sort((a, b) => position.get(a.productName!)! - position.get(b.productName!)!);
}

/**
 * Makes a Product for each coverage on the requested page of the search that has a product name
 * but no product yet, and links it; coverages on the page that share a name share the new product.
 * Returns how many products were created. A concurrent call that links the same coverages first
 * makes this one fail with 409 (optimistic lock) and roll back.
 */
export async function createProductsForCoverages(ctx: Context, input: SearchInput): Promise<number> {
  return inTransaction(ctx.em, async () => {
    // Nameless coverages are left out of the page itself, so that they cannot fill every page.
    const page = await coverages.search(ctx, input, { linkedProductId: null, productName: { $ne: null } });
    const named = page.content;
    if (named.length === 0) return 0;
    const typeNames = new Map(
      (await types.byIds(ctx, [...new Set(named.map((c) => c.typeId))])).map((t) => [t.id, t.name]),
    );
    const made = new Map<string, Product>();
    for (const coverage of named) {
      let product = made.get(coverage.productName!);
      if (!product) {
        product = ctx.em.create(Product, {
          tenantId: callerOf(ctx).tenantId,
          name: coverage.productName!,
          productType: ProductType.FINISHED_GOOD,
          category: typeNames.get(coverage.typeId) ?? undefined,
        } as never);
        made.set(coverage.productName!, product);
      }
      coverage.linkedProductId = product.id;
    }
    await ctx.em.flush();
    return made.size;
  });
}

/**
 * Queues one job per static model of the type, so static models are calculated in parallel by
 * as many workers as run, and each has its own progress and retries. A static model that already
 * has a PENDING job gets that job back (raised to the higher priority and due now) instead of a
 * second one; a RUNNING job does not count, since the type may have changed after it started.
 */
export async function queueCoverageCalculation(
  ctx: Context,
  typeId: string,
  priority: CoverageJobPriority = CoverageJobPriority.LOW,
): Promise<CoverageJob[]> {
  const type: ConfiguratorType = await types.oneOrFail(ctx, typeId);
  return inTransaction(ctx.em, async () => {
    const waiting = new Map(
      (await jobs.list(ctx, { typeId: type.id, status: CoverageJobStatus.PENDING })).map((j) => [
        j.staticModelId,
        j,
      ]),
    );
    const now = new Date();
    const queued = type.staticModels
      .filter((model) => model.id)
      .map((model) => {
        const existing = waiting.get(model.id!);
        if (existing) {
          if (isHigherPriority(priority, existing.priority)) existing.priority = priority;
          if (existing.runAfter > now) existing.runAfter = now;
          return existing;
        }
        const job = ctx.em.create(CoverageJob, {
          tenantId: callerOf(ctx).tenantId,
          typeId: type.id,
          staticModelId: model.id!,
          priority,
          runAfter: now,
        } as never);
        describeJob(job, type, model);
        return job;
      });
    await ctx.em.flush();
    await notifyWork(ctx.em, 'coverage');
    return queued;
  });
}
