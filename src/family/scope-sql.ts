import { callerOf, type Context } from '../context';
import { isUuid } from '../limits';

/**
 * The caller's data scope on `column` (a project or subsidiary id): FamilyService.scopeWhere
 * written out as SQL, for derived values that count or read only what the caller may see.
 */
export function scopeSql(column: string, ctx: Context, scope: 'projectId' | 'subsidiaryId'): string {
  const caller = callerOf(ctx);
  if (caller.hasFullAccess) return 'true';
  const allowed = scope === 'projectId' ? caller.projectAccess : caller.subsidiaryAccess;
  // Ids are checked to be uuids, so they can stand in the SQL text.
  const ids = allowed.filter(isUuid).map((id) => `'${id}'::uuid`);
  return ids.length ? `(${column} is null or ${column} in (${ids.join(', ')}))` : `${column} is null`;
}
