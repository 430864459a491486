import type { FilterQuery } from '@mikro-orm/core';
import type { IRule } from 'graphql-shield';
import type { ClassType } from 'type-graphql';
import type { Audited } from '../entities/tenant-scoped';
import type { Resource, Verb } from '../permissions/catalog';
import type { Context } from '../context';
import { eventsJoined } from '../history/events';
import type { DerivedSql } from './fields';
import type { JoinedSql } from './joined';

/**
 * A resource group, as data: everything that tells one group's standard family (find, page,
 * dynamic search, CSV export, create, update, delete) from another's.
 */
export interface GroupDef<T extends Audited = Audited, C extends object = any, U extends object = any> {
  /** The MikroORM entity, which is also the GraphQL object type. */
  entity: ClassType<T>;
  /** Singular and plural names used for GraphQL fields: `concept`, `searchConcepts`... */
  name: string;
  plural: string;
  /** The permission resource: READ_<resource>, CREATE_<resource>... */
  resource: Resource;
  createInput: ClassType<C>;
  updateInput: ClassType<U>;
  /** Text fields the `search` terms look in. */
  searchable: readonly (keyof T & string)[];
  /**
   * SQL for the documented fields the record does not store (counts, progress, overdue days):
   * with these, every field of the record's type can be filtered and sorted in the database
   * (fields.ts), and exported.
   */
  derived?: Readonly<Record<string, DerivedSql>>;
  /**
   * Values field resolvers would otherwise load in statements of their own (a feature's epic,
   * its task tally), selected in the record's own statement when the query asks for one of
   * their fields (joined.ts).
   */
  joined?: Readonly<Record<string, JoinedSql>>;
  /** A field that limits visibility to users with access to its value (docs/conventions.md, "Permissions" (data scope)). */
  scope?: 'subsidiaryId' | 'projectId';
  /** Boolean fields that have a second name (`active`/`isActive`): [stored, alias]. */
  booleanPairs?: readonly [keyof T & string, string][];
  /**
   * Domain rules run before a create or update is stored: derived values, checks, numbering.
   * `input` is the request's input with boolean pairs already merged.
   */
  beforeSave?(ctx: Context, entity: T, input: Partial<C & U>, isNew: boolean): Promise<void> | void;
  /**
   * Rules that replace `can(verb, resource)` for some verbs: records a caller owns (their own
   * notifications) need only a credential, since `visibleWhere` already limits them to the owner.
   */
  rules?: Partial<Record<Verb, IRule>>;
  /** A condition every family read, update and delete adds; records outside it behave as absent. */
  visibleWhere?(ctx: Context): FilterQuery<T>;
  /** Checks run inside the delete's transaction, before the rows found are deleted. */
  beforeDelete?(ctx: Context, rows: T[]): Promise<void> | void;
}

/** A group, with its records' `events` read in their own statement when a query asks for them. */
export function defineGroup<T extends Audited, C extends object, U extends object>(
  def: GroupDef<T, C, U>,
): GroupDef<T, C, U> {
  return { ...def, joined: { ...def.joined, events: eventsJoined(def.entity.name) } };
}
