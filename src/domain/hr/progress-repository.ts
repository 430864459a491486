import type { Context } from '../../context';
import type { DerivedSql } from '../../family/fields';
import type { JoinedSql } from '../../family/joined';
import { scopeSql } from '../../family/scope-sql';
import { TaskStatus } from './entities/task';

/**
 * The HR records' derived counts as SQL (the groups' `derived`), so that they filter and sort
 * in the database with the same values planning-service.ts answers: only what the caller may
 * see is counted. A repository module, as the one place these SQL texts over tasks, features and
 * epics are written.
 */

/** The caller's project scope on `column`. */
export const projectScopeSql = (column: string, ctx: Context): string => scopeSql(column, ctx, 'projectId');

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

/**
 * The visible tasks' tally as `[count, done]`, selected with the record for its three progress
 * fields (the group's `joined`): what taskProgress answers, in the record's statement.
 */
export const taskTallySql = (parent: TaskParent): JoinedSql => ({
  fields: ['taskCount', 'completedTaskCount', 'progress'],
  sql: (a, ctx) =>
    `select json_build_array(count(*), count(*) filter (where ${DONE})) ${visibleTasks(parent, a, ctx)}`,
  created: () => [0, 0],
});

/** A feature's epic as `{id, name, color}` when the caller may see it (visibleEpic's answer). */
export const featureEpicSql: JoinedSql = {
  fields: ['epic'],
  sql: (a, ctx) =>
    `select json_build_object('id', x.id, 'name', x.name, 'color', x.color) from epic x ` +
    `where x.tenant_id = ${a}.tenant_id and x.id = ${a}.epic_id and ${projectScopeSql('x.project_id', ctx)}`,
};
