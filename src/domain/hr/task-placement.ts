import type { FilterQuery } from '@mikro-orm/core';
import type { Context } from '../../context';
import { badRequest } from '../../errors';
import { Task } from './entities/task';

/**
 * A task stores the epic of its feature and the project of its epic (so progress counts are one
 * grouped query each). When a feature changes epic, or an epic changes project, its tasks follow
 * in the same flush, whoever may see them: the stored copies must never disagree with the parent.
 */
export async function moveTasks(
  ctx: Context,
  where: FilterQuery<Task>,
  to: { epicId?: string | null; projectId: string | null },
): Promise<void> {
  for (const task of await ctx.em.find(Task, where)) ctx.em.assign(task, to);
}

/** Given and different from what the parent says: the request contradicts itself. */
export function agree(
  field: string,
  given: string | null | undefined,
  parent: string | null,
  parentName: string,
) {
  if (given !== undefined && (given ?? null) !== parent)
    throw badRequest(`${field}: a task's ${field} is that of its ${parentName} (${parent ?? 'none'})`);
}
