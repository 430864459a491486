import { callerOf, type Context } from '../../../context';
import { Epic } from '../entities/epic';
import { Feature } from '../entities/feature';
import { Task, TaskStatus } from '../entities/task';
import { Employee } from '../../reference/entities/employee';
import { loaderById, loaderCountBy, loaderTallyBy } from '../../../family/loaders';
import { joinedOf } from '../../../family/service';
import { registerLinkSource } from '../../../family/links';
import { fullNameSql } from '../../../family/link-sql';
import { projectScopeSql } from '../progress-repository';
import { percentDone, type TaskProgress } from '../task-progress';
import { personSummary } from './summary-types';
import { epicService } from './epics';
import { taskService } from './tasks';

/**
 * What HR records show beyond their columns (an epic's owner, a team's members, progress), and
 * their list operations. Every derived value goes through a per-request DataLoader, so a page
 * costs one statement per derived field whatever its size, and counts only what the caller may see.
 */

/** The tasks of a feature, epic or project that the caller may see, counted by status. */
export function taskProgress(
  ctx: Context,
  parent: 'featureId' | 'epicId' | 'projectId',
  id: string,
): Promise<TaskProgress> {
  // Three fields of each record read it: made once per record and request.
  return ctx.loaders.once(`taskProgress:${parent}:${id}`, () => countTasks(ctx, parent, id));
}

/**
 * The task progress of a feature, epic or project: from the tally read with the record (its
 * group's joined `taskTally`) when it was, otherwise loaded as taskProgress does.
 */
export function recordProgress(
  ctx: Context,
  parent: 'featureId' | 'epicId' | 'projectId',
  record: { id: string },
): TaskProgress | Promise<TaskProgress> {
  const tally = joinedOf<[number, number]>(record, 'taskTally');
  if (!tally) return taskProgress(ctx, parent, record.id);
  const [taskCount, completedTaskCount] = tally;
  return { taskCount, completedTaskCount, progress: percentDone(completedTaskCount, taskCount) };
}

/**
 * One figure of a record's task progress: a value when the tally was read with the record, so a
 * page's rows answer their three progress fields without a promise each.
 */
export function progressField(
  ctx: Context,
  parent: 'featureId' | 'epicId' | 'projectId',
  record: { id: string },
  figure: keyof TaskProgress,
): number | Promise<number> {
  const progress = recordProgress(ctx, parent, record);
  return progress instanceof Promise ? progress.then((p) => p[figure]) : progress[figure];
}

async function countTasks(
  ctx: Context,
  parent: 'featureId' | 'epicId' | 'projectId',
  id: string,
): Promise<TaskProgress> {
  const scope = taskService.scopeWhere(callerOf(ctx)) as Record<string, unknown>;
  const byStatus = await loaderTallyBy(ctx, Task, parent, 'status', scope, 'visible').load(id);
  const taskCount = Object.values(byStatus).reduce((a, b) => a + b, 0);
  const completedTaskCount = byStatus[TaskStatus.DONE] ?? 0;
  return { taskCount, completedTaskCount, progress: percentDone(completedTaskCount, taskCount) };
}

/** A feature's epic as the caller may see it: read with the feature (joined `epic`) or loaded. */
export function featureEpic(
  ctx: Context,
  feature: Feature,
): { id: string; name: string; color?: string | null } | Promise<Epic | null> | null {
  const joined = joinedOf<{ id: string; name: string; color: string | null } | null>(feature, 'epic');
  return joined !== undefined ? joined : visibleEpic(ctx, feature.epicId);
}

// A feature's `epic` and a person's summary as SQL, for searches on `epic.name`, `owner.fullName`...
registerLinkSource('EpicSummary', {
  entity: Epic.name,
  visible: (a, ctx) => projectScopeSql(`${a}.project_id`, ctx),
});
registerLinkSource('PersonSummary', { entity: Employee.name, derived: { fullName: fullNameSql } });
// A team's `members` are the employees its memberIds name: searched as `members.lastName`...
registerLinkSource('TeamMember', { entity: Employee.name });

/** An epic as the caller may see it (out of scope: null, as if absent). */
export async function visibleEpic(ctx: Context, id: string | null | undefined): Promise<Epic | null> {
  if (!id) return null;
  return epicService.visibleById(ctx).load(id);
}

export function featureCount(ctx: Context, epicId: string): Promise<number> {
  return loaderCountBy(ctx, Feature, 'epicId').load(epicId);
}

export function visibleEpicCount(ctx: Context, projectId: string): Promise<number> {
  const scope = epicService.scopeWhere(callerOf(ctx)) as Record<string, unknown>;
  return loaderCountBy(ctx, Epic, 'projectId', scope, 'visible').load(projectId);
}

/** The employees named, in the order named; ids of no employee are left out. */
export async function employees(ctx: Context, ids: readonly string[]): Promise<Employee[]> {
  const found = await loaderById(ctx, Employee).loadMany(ids);
  // loadMany reports a failed batch per key instead of rejecting; it must not read as "no members".
  const failure = found.find((e) => e instanceof Error);
  if (failure) throw failure;
  return found.filter((e): e is Employee => e instanceof Employee);
}

export async function person(ctx: Context, id: string | null | undefined) {
  return id ? personSummary(await loaderById(ctx, Employee).load(id)) : null;
}

export async function people(ctx: Context, ids: readonly string[]) {
  return (await employees(ctx, ids)).map((e) => personSummary(e)!);
}
