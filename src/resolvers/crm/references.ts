import type { ClassType } from 'type-graphql';
import type { Context } from '../../context';
import type { TenantScoped } from '../../entities/tenant-scoped';
import { notFound } from '../../errors';
import { loaderById } from '../../family/loaders';

/** A field of an input that holds the id of another record, and that record's entity. */
export type Reference = readonly [field: string, entity: ClassType<TenantScoped>];

/**
 * Every id an input sets must name an existing record of the caller's tenant; a record pointing
 * at nothing would show `null` where the client expects the customer or owner it named. The
 * records found stay in the request's loaders, so the derived fields of the answer reuse them.
 */
export async function checkReferences(
  ctx: Context,
  input: Record<string, unknown>,
  references: readonly Reference[],
): Promise<void> {
  // One at a time: a request's queries share one connection, and the first missing record is
  // the one reported.
  for (const [field, entity] of references) {
    const id = input[field];
    if (id === undefined || id === null) continue;
    if (!(await loaderById(ctx, entity).load(String(id))))
      throw notFound(`${field} ${String(id)} does not exist`);
  }
}
