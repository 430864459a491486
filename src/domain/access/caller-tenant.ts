import { callerOf, type Context } from '../../context';
import { Tenant } from '../../entities/tenant';
import { notFound } from '../../errors';

/** The caller's tenant: the only one a caller can ever see. */
export async function callerTenant(ctx: Context): Promise<Tenant> {
  const tenant = await ctx.em.findOne(Tenant, { id: callerOf(ctx).tenantId });
  if (!tenant) throw notFound('the tenant does not exist');
  return tenant;
}
