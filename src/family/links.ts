import type { Context } from '../context';
import { isRecordType } from './record-types';

/**
 * Where the scalars of a nested object that summarises a linked record come from (a lead's
 * `customer`, a feature's `epic`), so a search can filter and sort on them by a dot path
 * (`customer.name`) in SQL. A field of a record is such a link when its type has a source and the
 * record documents the link's id beside it (`customerId`, or the field's `linkId` extension).
 */
export interface LinkSource {
  /** The entity whose row the link's id names. */
  entity: string;
  /**
   * SQL for the summary's fields the entity does not store under the same name, on the linked
   * row aliased `alias` (a user's displayName).
   */
  derived?: Readonly<Record<string, (alias: string) => string>>;
  /**
   * The linked rows the caller may see, on the row aliased `alias`: the others read as no link,
   * as the field resolver answers (an epic outside the caller's projects).
   */
  visible?: (alias: string, ctx: Context) => string;
}

const sources = new Map<string, LinkSource>();

/** Declares the source of a summary type; registered beside the function that builds it. */
export function registerLinkSource(typeName: string, source: LinkSource): void {
  sources.set(typeName, source);
}

/** The source of a nested object's type: declared, or the record itself when it is a group's record. */
export function linkSource(typeName: string): LinkSource | undefined {
  return sources.get(typeName) ?? (isRecordType(typeName) ? { entity: typeName } : undefined);
}

/**
 * Where the elements of a list of objects come from when the record does not hold them and they
 * are not the linked records its ids name (an inventory's locations, grouped from its batches):
 * SQL selecting the elements of the record aliased `alias`, one row each, a column per scalar of
 * the element type named as the GraphQL field, only within the record's tenant. A search filters
 * on `list.field` over these rows (fields.ts).
 */
export interface ListSource {
  elements: (alias: string, ctx: Context) => string;
}

const listSources = new Map<string, ListSource>();

/** Declares the source of a list's element type; registered beside the function that builds the list. */
export function registerListSource(typeName: string, source: ListSource): void {
  listSources.set(typeName, source);
}

export const listSource = (typeName: string): ListSource | undefined => listSources.get(typeName);
