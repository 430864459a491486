import type { Context } from '../../../context';
import { Product } from '../../reference/entities/product';
import type { StockSite } from '../../reference/entities/stock-site';
import { badRequest } from '../../../errors';
import { checkRefs, requireRef } from '../../../family/references';
import { FamilyService } from '../../../family/service';
import { stockSites } from '../../reference';

/**
 * Look-ups of the reference records stock points at. Sites go through their group's service, so
 * a site outside the caller's subsidiaries behaves as absent (404), like any other record.
 */
const siteService = new FamilyService(stockSites);

export async function siteOrFail(ctx: Context, id: string, label = 'stockSiteId'): Promise<StockSite> {
  return requireRef(ctx, 404, label, id, siteService);
}

/** The products named, by id; every unknown or malformed id is a 404 naming it. */
export async function productsOrFail(
  ctx: Context,
  ids: readonly string[],
  field = 'productId',
): Promise<Map<string, Product>> {
  const wanted = [...new Set(ids)];
  const found = await checkRefs(
    ctx,
    404,
    wanted.map((id) => ({ field, id, target: Product })),
  );
  return new Map((found as Product[]).map((p) => [p.id, p]));
}

/**
 * The subsidiary of a record kept at `site`: the site's own when it has one (a request naming
 * another is a 400), else the one the request names.
 */
export function subsidiaryAt(site: StockSite | null, requested: string | null | undefined): string | null {
  const own = site?.subsidiaryId ?? null;
  if (own && requested && requested !== own) {
    throw badRequest(`subsidiaryId: stock site ${site!.id} belongs to subsidiary ${own}, not ${requested}`);
  }
  return own ?? requested ?? null;
}
