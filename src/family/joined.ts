import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import type { DerivedSql } from './fields';

/**
 * A value some field resolvers of a record need beyond its columns (a feature's epic, its task
 * tally), as a scalar subquery over the record's row. A read selects it beside the columns when
 * the query asks for one of `fields`, so the record, and a whole page of records, cost one
 * statement instead of one more per derived field: each statement is a round trip whose socket
 * writes were the largest share of a find's CPU, and its own parse, bind and execution in
 * PostgreSQL. The resolvers read the value with `joinedOf` and load it themselves when the
 * record was read without it (by another query, or by code that changes records).
 */
export interface JoinedSql {
  /** The record type's fields answered from this value. */
  fields: readonly string[];
  /** The subquery: it must count and show only what the caller may see, as the resolver does. */
  sql: DerivedSql;
  /**
   * The value for a record the request has just created, when it is known without asking: no
   * other record can refer to it yet, so a tally of its children is empty. The create's answer
   * then needs no statement for it.
   */
  created?: (record: object) => unknown;
}

/** Joined values' names by the query's field node: a document's nodes are parsed once. */
const selections = new WeakMap<FieldNode, readonly string[]>();

/**
 * The names of `group`'s joined values whose fields the query selects on the records the
 * resolver returns: under the resolver's field itself, or under its `under` field (a page's
 * `content`). Directives are not evaluated: a value selected for nothing costs a subquery.
 */
export function joinedSelection(
  group: { readonly joined?: Readonly<Record<string, JoinedSql>> },
  info: GraphQLResolveInfo,
  under?: string,
): readonly string[] {
  const joined = group.joined;
  if (!joined) return [];
  const key = info.fieldNodes[0];
  let names = selections.get(key);
  if (!names) {
    let sets = info.fieldNodes.map((n) => n.selectionSet);
    if (under)
      sets = sets
        .flatMap((s) => fieldsIn(s, info).filter((f) => f.name.value === under))
        .map((f) => f.selectionSet);
    const selected = new Set(sets.flatMap((s) => fieldsIn(s, info)).map((f) => f.name.value));
    names = Object.keys(joined).filter((name) => joined[name].fields.some((f) => selected.has(f)));
    selections.set(key, names);
  }
  return names;
}

/** The fields of a selection set, fragments followed. */
function fieldsIn(set: SelectionSetNode | undefined, info: GraphQLResolveInfo): FieldNode[] {
  if (!set) return [];
  return set.selections.flatMap((s) => {
    if (s.kind === Kind.FIELD) return [s];
    if (s.kind === Kind.INLINE_FRAGMENT) return fieldsIn(s.selectionSet, info);
    return fieldsIn(info.fragments[s.name.value]?.selectionSet, info);
  });
}
