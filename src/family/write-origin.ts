import { Kind, type FieldNode, type GraphQLResolveInfo } from 'graphql';
import { deferredOriginOf } from '../db/orm-bypass/connection-transaction';

/**
 * The root field of a GraphQL operation (or REST row) a write is done for, when that field is the
 * operation's only one: its record's insert, or a deletion, may then go out with the request's
 * COMMIT (db/orm-bypass/deferred-writes.ts), and the database's refusal, surfacing later in the
 * request, is still answered as that field's, as it was when the statement went out on its own
 * (graphql/request-transaction.ts).
 *
 * Only a sole field: with several, a later one's statements would carry the earlier one's write
 * and its refusal would stop the later ones where today they run on.
 */
export class WriteOrigin {
  private constructor(
    /** The field's path in the answer (its response name). */
    readonly path: readonly (string | number)[],
    /** The field's nodes in the document (their locations are the error's). */
    readonly nodes: readonly FieldNode[],
  ) {}

  /** The origin of a write `info`'s field makes, or undefined when it is not the operation's only field. */
  static of(info: GraphQLResolveInfo | undefined): WriteOrigin | undefined {
    if (!info || info.path.prev !== undefined) return undefined;
    const selections = info.operation.selectionSet.selections;
    if (selections.length !== 1 || selections[0].kind !== Kind.FIELD) return undefined;
    return new WriteOrigin([info.path.key], info.fieldNodes);
  }
}

/** The origin of the write whose refusal `err` is, when it went out deferred for one. */
export function writeOriginOf(err: unknown): WriteOrigin | undefined {
  const origin = deferredOriginOf(err);
  return origin instanceof WriteOrigin ? origin : undefined;
}
