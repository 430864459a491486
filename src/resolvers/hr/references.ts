import type { Context } from '../../context';
import type { Audited } from '../../entities/tenant-scoped';
import { badRequest } from '../../errors';
import type { FamilyService } from '../../family/service';

/**
 * The record a request names in `field`, as the caller may see it. A reference to a record that
 * does not exist (or lies in another tenant or outside the caller's scope) is a mistake in the
 * request, so 400 naming the field, not 404 (the path named nothing missing).
 */
export async function referenced<T extends Audited>(
  ctx: Context,
  service: FamilyService<T>,
  field: string,
  id: string,
): Promise<T> {
  const found = await service.one(ctx, id, { detached: true });
  if (!found) throw badRequest(`${field}: there is no ${service.group.name} ${id}`);
  return found;
}

/** The standard fields of every record, which every group may filter and sort by. */
export const AUDIT_FIELDS = ['id', 'created', 'createdBy', 'updated', 'updatedBy'] as const;
