import { type EntityManager, type FilterQuery, type QueryOrderMap } from '@mikro-orm/core';
import type DataLoader from 'dataloader';
import { AuditLog } from '../entities/audit-log';
import { deletionEntry } from '../history/deletion-entry';
import { historyPage, type HistoryRow } from '../history/query';
import { retainedSince } from '../history/retention';
import { checkRestoredReferences } from '../history/restore-references';
import type { Audited } from '../entities/tenant-scoped';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import { callerOf, type Caller, type Context } from '../context';
import { inTransaction } from '../db/transaction';
import { markRestore } from '../db/tenancy';
import {
  derivedOf,
  hydrateDetached,
  PAGE_TOTAL,
  pageRows,
  rememberDerived,
  selectByIds,
  selectDetached,
  selectManagedByIds,
  takeDerived,
  type DerivedColumn,
} from '../db/orm-bypass/detached';
import {
  deferDelete,
  insertWithNextStatement,
  updateWithNextStatement,
} from '../db/orm-bypass/deferred-writes';
import { gatherReads } from '../db/orm-bypass/connection-transaction';
import { createPastUnitOfWork } from '../db/orm-bypass/lone-create';
import { manageView, mayUpdatePastUnitOfWork, updatePastUnitOfWork } from '../db/orm-bypass/lone-update';
import { checkIds, checkPaging, isUuid } from '../limits';
import { toPage, type Page } from '../schema/page';
import { clearLinks, readLinksTo } from './cleared-links';
import type { WriteOrigin } from './write-origin';
import { filterableFields, searchFields, type FieldInfo } from './fields';
import { recordType } from './record-types';
import { runWriteHooks } from './write-hooks';
import type { GroupDef } from './group';
import { Direction, type SearchInput } from './search-input';
import { filterWhere, orderBy, searchWhere } from './where';

export { derivedOf };

/** A joined value read with `record` (GroupDef.joined), or undefined when it was read without. */
export function joinedOf<V>(record: object, name: string): V | undefined {
  return derivedOf(record)?.[name] as V | undefined;
}

export interface FindOptions<T> {
  /** A view for answering a query, outside the unit of work: never write to it. */
  detached?: boolean;
  /** Also compute the derived fields in SQL (derivedOf reads them): for CSV exports. */
  derived?: boolean;
  /** The group's joined values to select with a view (joined.ts; joinedOf reads them). */
  joined?: readonly string[];
  orderBy?: QueryOrderMap<T>[];
  /**
   * For a search answering a view of the record that names its own fields (a product's stock
   * row): the view's name and its fields, in place of the record's.
   */
  view?: {
    name: string;
    fields: Map<string, FieldInfo>;
    /** Derived fields of the view selected beside the page's columns (derivedOf reads them). */
    select?: readonly string[];
  };
}

export interface PageArgs {
  pageNumber?: number | null;
  pageSize?: number | null;
  sortBy?: string | null;
  direction?: Direction | null;
  search?: string | null;
}

/**
 * The standard operation family, written once for every group. Each method works within the
 * caller's tenant (the ORM filter) and data scope (the group's scope field), so nothing here
 * or in a group's own operations can reach another tenant's rows.
 */
export class FamilyService<T extends Audited, C extends object = any, U extends object = any> {
  private fields?: Map<string, FieldInfo>;

  constructor(readonly group: GroupDef<T, C, U>) {}

  get entityName(): string {
    return this.group.entity.name;
  }

  /** Every documented field of the record, each filterable and sortable (fields.ts). */
  fieldsOf(em: EntityManager): Map<string, FieldInfo> {
    const metadata = em.getMetadata();
    this.fields ??= searchFields(
      metadata.get(this.entityName),
      filterableFields(recordType(this.entityName)),
      this.group.derived,
      this.group.booleanPairs,
      (entity) => metadata.get(entity),
    );
    return this.fields;
  }

  /** Records outside the caller's subsidiaries or projects behave as absent. */
  scopeWhere(caller: Caller): FilterQuery<T> {
    const field = this.group.scope;
    if (!field || caller.hasFullAccess) return {} as FilterQuery<T>;
    const allowed = field === 'subsidiaryId' ? caller.subsidiaryAccess : caller.projectAccess;
    return { $or: [{ [field]: null }, { [field]: { $in: [...allowed] } }] } as FilterQuery<T>;
  }

  /** Checks that a value written to the scope field is one the caller may use. */
  checkScopeValue(caller: Caller, value: unknown): void {
    const field = this.group.scope;
    if (!field || caller.hasFullAccess || value === null || value === undefined) return;
    const allowed = field === 'subsidiaryId' ? caller.subsidiaryAccess : caller.projectAccess;
    if (!allowed.includes(String(value))) throw forbidden(`${field} ${String(value)} is outside your access`);
  }

  /** What limits the records the caller sees beyond the tenant: data scope and the group's own rule. */
  private limits(ctx: Context): FilterQuery<T>[] {
    const visible = this.group.visibleWhere?.(ctx) ?? ({} as FilterQuery<T>);
    return [this.scopeWhere(callerOf(ctx)), visible].filter((c) => Object.keys(c as object).length > 0);
  }

  where(ctx: Context, ...conditions: FilterQuery<T>[]): FilterQuery<T> {
    return this.combine([...this.limits(ctx), ...conditions]);
  }

  private combine(conditions: FilterQuery<T>[]): FilterQuery<T> {
    const all = conditions.filter((c) => Object.keys(c as object).length > 0);
    return (all.length === 0 ? {} : all.length === 1 ? all[0] : { $and: all }) as FilterQuery<T>;
  }

  /**
   * Reads for changing records return managed entities (em.find); reads for answering queries
   * pass `{ detached: true }` and get views outside the unit of work (see detached.ts).
   */
  private read(ctx: Context, where: FilterQuery<T>, options: FindOptions<T>): Promise<T[]> {
    const orderBy = options.orderBy;
    if (options.detached)
      return selectDetached<T>(ctx.em, this.entityName, where, {
        orderBy,
        derived: this.joinedColumns(ctx, options),
      });
    return ctx.em.find(this.group.entity, where, orderBy ? { orderBy } : {});
  }

  /** Records by id, in the order asked; unknown, malformed and out-of-scope ids are skipped. */
  async byIds(ctx: Context, ids: readonly string[], options: FindOptions<T> = {}): Promise<T[]> {
    const wanted = checkIds(ids);
    if (wanted.length === 0) return [];
    const limits = this.limits(ctx);
    const byId = { id: { $in: wanted } } as unknown as FilterQuery<T>;
    // With nothing but the tenant to limit what the caller sees, a view by id takes the
    // statement made once per entity instead of a query builder's.
    const rows =
      options.detached && limits.length === 0
        ? await selectByIds<T>(ctx.em, this.entityName, wanted, this.joinedColumns(ctx, options))
        : await this.read(ctx, this.combine([...limits, byId]), options);
    const found = new Map(rows.map((r) => [r.id, r]));
    return wanted.map((id) => found.get(id)).filter((r): r is NonNullable<typeof r> => r !== undefined);
  }

  /**
   * The request's views of this group's records by id, as the caller may see them (null when
   * absent or out of scope): what an answer's linked record reads, and what a reference check
   * that found the record primes (checkRefs), so the answer does not read it again.
   */
  visibleById(ctx: Context): DataLoader<string, T | null> {
    return ctx.loaders.get<string, T | null>(`visibleById:${this.group.name}`, async (ids) => {
      const found = new Map(
        (await this.byIds(ctx, [...new Set(ids)], { detached: true })).map((r) => [r.id, r]),
      );
      return ids.map((id) => found.get(id) ?? null);
    });
  }

  async one(ctx: Context, id: string, options: FindOptions<T> = {}): Promise<T | null> {
    if (!isUuid(id)) return null;
    const [found] = await this.byIds(ctx, [id], options);
    return found ?? null;
  }

  async oneOrFail(ctx: Context, id: string): Promise<T> {
    const found = await this.one(ctx, id);
    if (!found) throw notFound(`${this.group.name} ${id} does not exist`);
    return found;
  }

  /** Every record matching `where`, oldest first: the group's own list operations use this. */
  async list(
    ctx: Context,
    where: FilterQuery<T> = {} as FilterQuery<T>,
    sort?: QueryOrderMap<T>[],
    options: FindOptions<T> = {},
  ): Promise<T[]> {
    const orderBy = [...(sort ?? []), { created: 'asc' }, { id: 'asc' }] as QueryOrderMap<T>[];
    return this.read(ctx, this.where(ctx, where), { ...options, orderBy });
  }

  /** Views of the records whose `field` holds `id` (a query's list); a malformed id names none. */
  async listBy(ctx: Context, field: keyof T & string, id: string): Promise<T[]> {
    if (!isUuid(id)) return [];
    return this.list(ctx, { [field]: id } as FilterQuery<T>, undefined, { detached: true });
  }

  async search(
    ctx: Context,
    input: SearchInput = {},
    extra?: FilterQuery<T>,
    options: FindOptions<T> = {},
  ): Promise<Page<T>> {
    const { page, size } = checkPaging(input.page, input.size);
    const fields = options.view?.fields ?? this.fieldsOf(ctx.em);
    const name = options.view?.name ?? this.entityName;
    // Made for each statement that reads it: a derived field's SQL is a raw fragment, which
    // MikroORM takes once.
    const where = () =>
      this.where(
        ctx,
        ...searchWhere(this.group.searchable, input.search),
        ...filterWhere(fields, input.filters, name, ctx),
        ...(extra ? [extra] : []),
      );
    const sort = orderBy(fields, input.sort, name, ctx) as QueryOrderMap<T>[];
    return this.pageOf(ctx, where, sort, page, size, options);
  }

  async page(ctx: Context, args: PageArgs, options: FindOptions<T> = {}): Promise<Page<T>> {
    const { page, size } = checkPaging(args.pageNumber, args.pageSize, ['pageNumber', 'pageSize']);
    const fields = this.fieldsOf(ctx.em);
    const where = () =>
      this.where(ctx, ...searchWhere(this.group.searchable, args.search ? [args.search] : []));
    const sort = args.sortBy
      ? (orderBy(
          fields,
          [{ field: args.sortBy, ascending: args.direction !== Direction.DESC }],
          this.entityName,
          ctx,
        ) as QueryOrderMap<T>[])
      : [];
    return this.pageOf(ctx, where, sort, page, size, options);
  }

  private async pageOf(
    ctx: Context,
    where: () => FilterQuery<T>,
    sort: QueryOrderMap<T>[],
    page: number,
    size: number,
    options: FindOptions<T>,
  ): Promise<Page<T>> {
    // A stable tie-breaker, so that paging never shows a record twice or skips one.
    const order = [...sort, { created: 'asc' }, { id: 'asc' }] as QueryOrderMap<T>[];
    const derived = [
      ...(options.derived ? this.derivedColumns(ctx) : []),
      ...this.joinedColumns(ctx, options),
      ...this.viewColumns(ctx, options),
    ];
    const { rows, total } = await pageRows<T>(ctx.em, this.entityName, where, {
      orderBy: order,
      limit: size,
      offset: page * size,
      derived,
    });
    if (options.detached) {
      const views = hydrateDetached<T>(ctx.em, this.entityName, rows, derived);
      return toPage(views, total, page, size, sort.length > 0);
    }
    for (const row of rows) delete row[PAGE_TOTAL];
    const values = derived.length ? rows.map((row) => takeDerived(row, derived)) : undefined;
    const records = rows.map((row) => ctx.em.map(this.group.entity, row as never));
    values?.forEach((v, i) => rememberDerived(records[i] as object, v));
    return toPage(records, total, page, size, sort.length > 0);
  }

  /** The SQL of the record's derived fields, selected beside its columns for a CSV export. */
  private derivedColumns(ctx: Context): DerivedColumn[] {
    return Object.entries(this.group.derived ?? {}).map(([name, sql]) => ({
      name,
      sql: (alias: string) => sql(alias, ctx),
    }));
  }

  /** The SQL of the view's derived fields a page selects (FindOptions.view.select). */
  private viewColumns(ctx: Context, options: FindOptions<T>): DerivedColumn[] {
    const view = options.view;
    return (view?.select ?? []).map((name) => {
      const derived = view!.fields.get(name)?.derived;
      if (!derived) throw new Error(`${view!.name}.${name} is not a derived field`);
      return { name, sql: (alias: string) => derived(alias, ctx) };
    });
  }

  /** The SQL of the joined values a view is read with (FindOptions.joined). */
  private joinedColumns(ctx: Context, options: FindOptions<T>): DerivedColumn[] {
    if (!options.detached || !options.joined?.length) return [];
    const joined = this.group.joined ?? {};
    return options.joined.map((name) => ({ name, sql: (alias: string) => joined[name].sql(alias, ctx) }));
  }

  /** Merges `alias` booleans into their stored names; both given and different is a 400. */
  normalize(input: object): Partial<C & U> {
    const data: Record<string, unknown> = { ...input };
    for (const [stored, alias] of this.group.booleanPairs ?? []) {
      const a = data[stored];
      const b = data[alias];
      if (a !== undefined && a !== null && b !== undefined && b !== null && a !== b) {
        throw badRequest(`${stored} and ${alias} mean the same and must not differ`);
      }
      if ((a === undefined || a === null) && b !== undefined) data[stored] = b;
      delete data[alias];
    }
    for (const key of Object.keys(data)) if (data[key] === undefined) delete data[key];
    return data as Partial<C & U>;
  }

  /**
   * Creates a record. With `origin` (the operation's only field asks: write-origin.ts), its insert
   * goes out with the request's COMMIT instead of in a round trip of its own: nothing is read back
   * (its version is the column's default) and a refusal is answered as the field's all the same.
   */
  async create(ctx: Context, input: C, origin?: WriteOrigin): Promise<T> {
    const caller = callerOf(ctx);
    const data = this.normalize(input as object);
    const scopeField = this.group.scope;
    if (scopeField) this.checkScopeValue(caller, (data as Record<string, unknown>)[scopeField]);
    await runWriteHooks(ctx, data, { entity: this.entityName, isNew: true });
    // One transaction for the hook and the insert, so a hook can number the record gapless
    // (services/sequences.ts) and a failed insert gives the number back.
    return inTransaction(ctx.em, async () => {
      const entity = ctx.em.create(this.group.entity, { ...data, tenantId: caller.tenantId } as never, {
        persist: false,
      });
      await this.group.beforeSave?.(ctx, entity, data, true);
      // The request's one write, with nothing to do after it: past the unit of work where it can be.
      const lone =
        origin !== undefined &&
        !this.group.afterSave &&
        (await createPastUnitOfWork(ctx.em, this.entityName, [entity], origin));
      if (!lone) {
        if (origin) insertWithNextStatement(ctx.em, this.entityName, entity, origin);
        await ctx.em.persistAndFlush(entity);
      }
      await this.group.afterSave?.(ctx, entity, data, true);
      this.rememberCreated(entity);
      return entity;
    });
  }

  /** The joined values a record just created has without a statement (JoinedSql.created). */
  private rememberCreated(entity: T): void {
    const values: Record<string, unknown> = {};
    for (const [name, joined] of Object.entries(this.group.joined ?? {}))
      if (joined.created) values[name] = joined.created(entity);
    rememberDerived(entity, values);
  }

  /**
   * Changes the fields given. With `expectedVersion` (the `version` the client read), a record
   * changed since is a 409 instead of being overwritten; concurrent writers of the same row are
   * caught by the version check on flush either way. With `origin` (as for `create`), the update
   * goes out with the request's COMMIT, as a statement that fails when the version check does:
   * the same 409, and none of the request's writes kept.
   */
  async update(
    ctx: Context,
    id: string,
    input: U,
    expectedVersion?: number | null,
    origin?: WriteOrigin,
  ): Promise<T> {
    const caller = callerOf(ctx);
    // The request's one write, with nothing to do after it: past the flush where it can be, the
    // record read as a view and managed as a read record is (lone-update.ts).
    const lone =
      origin !== undefined && !this.group.afterSave && mayUpdatePastUnitOfWork(ctx.em, this.entityName);
    const entity = await this.toChange(ctx, id, lone);
    if (expectedVersion != null && entity.version !== expectedVersion) {
      throw conflict(
        `${this.group.name} ${id} is at version ${entity.version}, not ${expectedVersion}: read it again and retry`,
      );
    }
    const data = this.normalize(input as object);
    const scopeField = this.group.scope;
    if (scopeField && scopeField in data)
      this.checkScopeValue(caller, (data as Record<string, unknown>)[scopeField]);
    await runWriteHooks(ctx, data, { entity: this.entityName, isNew: false });
    ctx.em.assign(entity, data as never);
    await this.group.beforeSave?.(ctx, entity, data, false);
    if (lone && (await updatePastUnitOfWork(ctx.em, this.entityName, entity, origin!))) return entity;
    if (origin) await updateWithNextStatement(ctx.em, this.entityName, entity, origin, () => ctx.em.flush());
    else await ctx.em.flush();
    await this.group.afterSave?.(ctx, entity, data, false);
    return entity;
  }

  /**
   * The record an update changes, managed: read by the statement made once per entity where
   * nothing but the tenant limits what the caller sees (selectManagedByIds), else as `oneOrFail`.
   * With `view`, read as a view and made managed by `manageView` (a lone update's: its entity
   * factory's share of the read saved).
   */
  private async toChange(ctx: Context, id: string, view = false): Promise<T> {
    const [found] = !isUuid(id)
      ? []
      : this.limits(ctx).length > 0
        ? await this.byIds(ctx, [id], { detached: view })
        : view
          ? await selectByIds<T>(ctx.em, this.entityName, [id])
          : await selectManagedByIds<T>(ctx.em, this.entityName, [id]);
    if (!found) throw notFound(`${this.group.name} ${id} does not exist`);
    if (view) manageView(ctx.em, found);
    return found;
  }

  /** Deletes one record; false when it does not exist (for this caller). */
  async remove(ctx: Context, id: string, origin?: WriteOrigin): Promise<boolean> {
    return (await this.removeMany(ctx, [id], origin)) === 1;
  }

  /**
   * Deletes the records named, skipping unknown ones, and records each in the audit log. With
   * `origin` (as for `create`), the delete and the audit rows go out with the request's COMMIT.
   */
  async removeMany(ctx: Context, ids: readonly string[], origin?: WriteOrigin): Promise<number> {
    const wanted = checkIds(ids);
    if (wanted.length === 0) return 0;
    const caller = callerOf(ctx);
    return inTransaction(ctx.em, async () => {
      // The records linking to those named are read in the same round trip as the records (the
      // reads are gathered): of those the caller may not delete, they are read and left alone.
      const linking = await readLinksTo(ctx.em, this.entityName);
      gatherReads(ctx.em, 1 + linking.length);
      const [rows, linked] = await Promise.all([
        this.doomed(ctx, wanted),
        Promise.all(linking.map((read) => read(wanted))),
      ]);
      if (rows.length === 0) return 0;
      await this.group.beforeDelete?.(ctx, rows);
      const found = rows.map((r) => r.id);
      clearLinks(linked, found);
      if (!deferDelete(ctx.em, this.entityName, caller.tenantId, found, origin))
        await ctx.em.nativeDelete(this.group.entity, { id: { $in: found } } as unknown as FilterQuery<T>);
      const entries = rows.map((row) => deletionEntry(ctx.em, caller.tenantId, this.entityName, row, false));
      // A deletion that clears no link writes nothing but its audit rows: past the unit of work.
      const lone =
        origin !== undefined &&
        linked.every((link) => link.records.length === 0) &&
        (await createPastUnitOfWork(ctx.em, AuditLog.name, entries, origin));
      if (!lone) {
        for (const entry of entries) {
          if (origin) insertWithNextStatement(ctx.em, AuditLog.name, entry, origin);
          ctx.em.persist(entry);
        }
        await ctx.em.flush();
      }
      return rows.length;
    });
  }

  /**
   * The records of `ids` a deletion removes, as the caller may see them, in the database's order:
   * views (detached.ts), since nothing writes to them (the delete is a statement of its own, the
   * audit log takes their fields), where managed entities cost MikroORM's query builder, an
   * entity through its factory per row and their registration, for records the request drops.
   */
  private doomed(ctx: Context, ids: readonly string[]): Promise<T[]> {
    const limits = this.limits(ctx);
    if (limits.length === 0) return selectByIds<T>(ctx.em, this.entityName, ids);
    const byId = { id: { $in: ids } } as unknown as FilterQuery<T>;
    return selectDetached<T>(ctx.em, this.entityName, this.combine([...limits, byId]));
  }

  /**
   * The last deletion of record `id` the audit log keeps within the tenant's retention period
   * (older ones are gone, or about to go, with the retention job).
   */
  private async deletionOf(ctx: Context, id: string): Promise<AuditLog | null> {
    const since = await retainedSince(ctx.em);
    return ctx.em.findOne(
      AuditLog,
      { entity: this.entityName, entityId: id, action: 'DELETE', created: { $gte: since } },
      { orderBy: { created: 'desc' } },
    );
  }

  /**
   * Whether the caller could see a deleted record as it was: in their data scope. A group that
   * limits visibility by its own rule (visibleWhere) shows no deleted record.
   */
  private deletedVisible(ctx: Context, data: Record<string, unknown>): boolean {
    if (this.group.visibleWhere) return false;
    const field = this.group.scope;
    const caller = callerOf(ctx);
    if (!field || caller.hasFullAccess) return true;
    const value = data[field];
    const allowed = field === 'subsidiaryId' ? caller.subsidiaryAccess : caller.projectAccess;
    return value === null || value === undefined || allowed.includes(String(value));
  }

  /**
   * A page of the history of record `id`, newest first: of a record the caller can see, or of
   * one deleted within the retention period that they could see. A malformed id is a 400.
   */
  async historyOf(
    ctx: Context,
    id: string,
    pageNumber?: number | null,
    pageSize?: number | null,
  ): Promise<Page<HistoryRow>> {
    if (!isUuid(id)) throw badRequest(`id ${id} is not a UUID`);
    if (!(await this.one(ctx, id, { detached: true }))) {
      const deletion = await this.deletionOf(ctx, id);
      if (!deletion || !this.deletedVisible(ctx, (deletion.data ?? {}) as Record<string, unknown>))
        throw notFound(`${this.group.name} ${id} does not exist`);
    }
    return historyPage(ctx.em, { recordType: this.entityName, recordId: id }, pageNumber, pageSize);
  }

  /**
   * Brings back a record deleted within the retention period, as it was when deleted, under its
   * own id, through the same checks as a creation: the caller's data scope, the files it names,
   * and the references its table's keys declare (a record it refers to that is gone too is a 409
   * naming the field: restore that one first). Its history gets a RESTORE entry and its event
   * `<resource>.restored`. An id never deleted, or deleted before the retention period, is a 404.
   */
  async restore(ctx: Context, id: string): Promise<T> {
    if (!isUuid(id)) throw badRequest(`id ${id} is not a UUID`);
    const caller = callerOf(ctx);
    return inTransaction(ctx.em, async () => {
      const existing = await ctx.em.findOne(this.group.entity, { id } as unknown as FilterQuery<T>);
      if (existing) {
        if (await this.one(ctx, id))
          throw conflict(`${this.group.name} ${id} exists: only a deleted record can be restored`);
        throw notFound(`${this.group.name} ${id} does not exist`);
      }
      const deletion = await this.deletionOf(ctx, id);
      const logged = (deletion?.data ?? null) as Record<string, unknown> | null;
      if (!deletion || !logged || !this.deletedVisible(ctx, logged))
        throw notFound(`${this.group.name} ${id} was not deleted within the retention period`);
      const data = this.storedFields(ctx, logged);
      await runWriteHooks(ctx, data, { entity: this.entityName, isNew: true });
      await checkRestoredReferences(ctx.em, this.entityName, data);
      const entity = ctx.em.create(this.group.entity, { ...data, id, tenantId: caller.tenantId } as never);
      await this.group.beforeRestore?.(ctx, entity);
      markRestore(entity);
      await ctx.em.persistAndFlush(entity);
      return entity;
    });
  }

  /** A logged record's stored fields, as the entity holds them (dates as dates). */
  private storedFields(ctx: Context, logged: Record<string, unknown>): Record<string, unknown> {
    const meta = ctx.em.getMetadata().get(this.entityName);
    const data: Record<string, unknown> = {};
    for (const prop of meta.props) {
      if (prop.persist === false || ['tenantId', 'id', 'version', 'updated', 'updatedBy'].includes(prop.name))
        continue;
      if (!(prop.name in logged)) continue;
      const value = logged[prop.name];
      data[prop.name] = prop.runtimeType === 'Date' && typeof value === 'string' ? new Date(value) : value;
    }
    return data;
  }
}
