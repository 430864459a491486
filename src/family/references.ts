import type { ClassType } from 'type-graphql';
import type { Context } from '../context';
import type { Audited, TenantScoped } from '../entities/tenant-scoped';
import { problems, type Problem } from '../errors';
import { loaderById } from './loaders';
import type { FamilyService } from './service';

/**
 * The one way to check an id a request names. The record must exist in the caller's tenant; when
 * the target is a group's service, it must also lie in the caller's data scope (a record out of
 * scope behaves as absent). What a missing record answers differs where the specification says
 * so, hence `status`: 404 where the id names the thing the operation is about (an access list's
 * project or subsidiary, a lead's subsidiary), 400 where it is one field of a body among others.
 */
export type RefTarget<T extends TenantScoped = TenantScoped> = ClassType<T> | FamilyService<any>;

export interface Ref<T extends TenantScoped = TenantScoped> {
  /** The field or parameter that holds the id, as the client wrote it (`projectIds[2]`). */
  field: string;
  id: string | null | undefined;
  target: RefTarget<T>;
  /** The ids the caller may name here, when its access limits them (others behave as absent). */
  within?: readonly string[];
}

const isService = (t: RefTarget): t is FamilyService<any> => typeof t !== 'function';

function targetName(t: RefTarget): string {
  return isService(t) ? t.group.name : t.name;
}

/**
 * Looks up every reference (absent ids are skipped) and answers the records found, in order.
 * Every missing one is named in the same error, so a client fixes its request in one round.
 * Records are read as views: entities go through the request's loaders, groups through their
 * service with the caller's scope, priming its loader of visible records; derived fields of the
 * answer reuse them either way.
 */
export async function checkRefs(
  ctx: Context,
  status: 400 | 404,
  refs: readonly Ref[],
): Promise<(TenantScoped | null)[]> {
  const found: (TenantScoped | null)[] = refs.map(() => null);
  const given = refs.flatMap((ref, i) =>
    ref.id === undefined || ref.id === null || (ref.within && !ref.within.includes(String(ref.id)))
      ? []
      : [{ ...ref, id: String(ref.id), i }],
  );
  // One target at a time (a request's queries share one connection); the ids of an entity go to
  // its loader together, so a list of a thousand ids is one statement.
  for (const target of new Set(given.map((r) => r.target))) {
    const mine = given.filter((r) => r.target === target);
    let records: readonly unknown[];
    if (isService(target)) {
      records = await target.byIds(ctx, [...new Set(mine.map((r) => r.id))], { detached: true });
      // The answer's linked record (a created feature's epic) is then read from the loader.
      const visible = target.visibleById(ctx);
      for (const r of records as TenantScoped[]) visible.prime(r.id, r);
    } else records = await loaderById(ctx, target).loadMany(mine.map((r) => r.id));
    const byId = new Map<string, TenantScoped>();
    for (const r of records)
      if (r && !(r instanceof Error)) byId.set((r as TenantScoped).id, r as TenantScoped);
    for (const r of mine) found[r.i] = byId.get(r.id) ?? null;
  }
  const missing: Problem[] = refs.flatMap((ref, i) =>
    ref.id === undefined || ref.id === null || found[i]
      ? []
      : [{ field: ref.field, reason: `there is no ${targetName(ref.target)} ${String(ref.id)}` }],
  );
  if (missing.length) throw problems(status, missing);
  return found;
}

/** One reference that must exist: the record, or the error (see checkRefs). */
export async function requireRef<T extends Audited>(
  ctx: Context,
  status: 400 | 404,
  field: string,
  id: string,
  target: FamilyService<T>,
): Promise<T>;
export async function requireRef<T extends TenantScoped>(
  ctx: Context,
  status: 400 | 404,
  field: string,
  id: string,
  target: ClassType<T>,
): Promise<T>;
export async function requireRef(
  ctx: Context,
  status: 400 | 404,
  field: string,
  id: string,
  target: RefTarget,
): Promise<TenantScoped> {
  const [record] = await checkRefs(ctx, status, [{ field, id, target }]);
  return record!;
}

/** The references an input sets, by field name: `[['customerId', Customer], ...]`. */
export function refsIn(input: object, fields: readonly (readonly [string, RefTarget])[]): Ref[] {
  const given = input as Record<string, unknown>;
  return fields.map(([field, target]) => ({ field, id: given[field] as string | null | undefined, target }));
}

/** The references a list of ids makes (`projectIds[0]`, ...), each to `target`. */
export function refsOf(field: string, ids: readonly string[], target: RefTarget): Ref[] {
  return ids.map((id, i) => ({ field: `${field}[${i}]`, id, target }));
}
