import type { Context } from '../../context';
import { Product } from '../../entities/reference/product';
import type { StockSite } from '../../entities/reference/stock-site';
import { badRequest, notFound } from '../../errors';
import { FamilyService } from '../../family/service';
import { isUuid } from '../../family/limits';
import { stockSites } from '../reference/groups';

/**
 * Look-ups of the reference records stock points at. Sites go through their group's service, so
 * a site outside the caller's subsidiaries behaves as absent (404), like any other record.
 */
const siteService = new FamilyService(stockSites);

export async function siteOrFail(ctx: Context, id: string, label = 'stockSiteId'): Promise<StockSite> {
  const site = await siteService.one(ctx, id);
  if (!site) throw notFound(`${label}: stock site ${id} does not exist`);
  return site;
}

/** The products named, by id; any unknown or malformed id is a 404 naming it. */
export async function productsOrFail(ctx: Context, ids: readonly string[]): Promise<Map<string, Product>> {
  const wanted = [...new Set(ids)];
  const bad = wanted.find((id) => !isUuid(id));
  if (bad !== undefined) throw notFound(`product ${bad} does not exist`);
  const rows = wanted.length ? await ctx.em.find(Product, { id: { $in: wanted } }) : [];
  const byId = new Map(rows.map((p) => [p.id, p]));
  const missing = wanted.find((id) => !byId.has(id));
  if (missing) throw notFound(`product ${missing} does not exist`);
  return byId;
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
