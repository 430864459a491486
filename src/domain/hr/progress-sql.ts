import { callerOf, type Context } from '../../context';
import { TaskStatus } from '../../entities/hr/task';
import type { DerivedSql } from '../../family/fields';
import { isUuid } from '../../family/limits';

/**
 * The HR records' derived counts as SQL (the groups' `derived`), so that they filter and sort
 * in the database with the same values planning-service.ts answers: only what the caller may
 * see is counted.
 */

/** The caller's project scope on `column`: FamilyService.scopeWhere written out as SQL. */
export function projectScopeSql(column: string, ctx: Context): string {
  const caller = callerOf(ctx);
  if (caller.hasFullAccess) return 'true';
  // Ids are checked to be uuids, so they can stand in the SQL text.
  const ids = caller.projectAccess.filter(isUuid).map((id) => `'${id}'::uuid`);
  return ids.length ? `(${column} is null or ${column} in (${ids.join(', ')}))` : `${column} is null`;
}

type TaskParent = 'feature_id' | 'epic_id' | 'project_id';

const visibleTasks = (parent: TaskParent, alias: string, ctx: Context) =>
  `from task t where t.tenant_id = ${alias}.tenant_id and t.${parent} = ${alias}.id and ${projectScopeSql('t.project_id', ctx)}`;

const DONE = `t.status = '${TaskStatus.DONE}'`;

/** taskCount, completedTaskCount and progress (percent done, two decimals, 0 without tasks). */
export function taskProgressSql(
  parent: TaskParent,
): Record<'taskCount' | 'completedTaskCount' | 'progress', DerivedSql> {
  return {
    taskCount: (a, ctx) => `select count(*)::int ${visibleTasks(parent, a, ctx)}`,
    completedTaskCount: (a, ctx) => `select count(*)::int ${visibleTasks(parent, a, ctx)} and ${DONE}`,
    progress: (a, ctx) =>
      `select (case when count(*) = 0 then 0 else round(count(*) filter (where ${DONE}) * 100.0 / count(*), 2) end)::float8 ${visibleTasks(parent, a, ctx)}`,
  };
}

/** An epic's features (every one, as featureCount counts them). */
export const featureCountSql: DerivedSql = (a) =>
  `select count(*)::int from feature f where f.tenant_id = ${a}.tenant_id and f.epic_id = ${a}.id`;

/** A project's epics the caller may see. */
export const epicCountSql: DerivedSql = (a, ctx) =>
  `select count(*)::int from epic x where x.tenant_id = ${a}.tenant_id and x.project_id = ${a}.id and ${projectScopeSql('x.project_id', ctx)}`;
