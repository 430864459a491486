import type { Context } from '../../../context';
import { callerOf } from '../../../context';
import type { Lead, LeadStatus } from '../entities/lead';
import { Subsidiary } from '../../reference/entities/subsidiary';
import { checkRefs } from '../../../family/references';
import { FamilyService } from '../../../family/service';
import { leads } from './leads';

const service = new FamilyService(leads);

/** Any status may follow any other; the change is recorded as a STATUS_CHANGE event on flush. */
export function changeLeadStatus(ctx: Context, id: string, status: LeadStatus): Promise<Lead> {
  return service.update(ctx, id, { status });
}

/**
 * Moves a lead to a subsidiary, or to none. A subsidiary outside the caller's access behaves as
 * one that does not exist (docs/conventions.md, "Permissions" (data scope)), so both are a 404 with the same detail.
 */
export async function moveLeadToSubsidiary(
  ctx: Context,
  id: string,
  subsidiaryId: string | null | undefined,
): Promise<Lead> {
  const lead = await service.oneOrFail(ctx, id);
  if (subsidiaryId != null) {
    const caller = callerOf(ctx);
    const within = caller.hasFullAccess ? undefined : caller.subsidiaryAccess;
    await checkRefs(ctx, 404, [{ field: 'subsidiaryId', id: subsidiaryId, target: Subsidiary, within }]);
  }
  lead.subsidiaryId = subsidiaryId ?? null;
  await ctx.em.flush();
  return lead;
}
