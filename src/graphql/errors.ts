import type { ApolloServerPlugin } from '@apollo/server';
import {
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { Context } from '../context';
import { AppError, titleFor } from '../errors';

/**
 * How /graphql answers a request without a valid credential: one rule for a missing and for a
 * bad one. The whole request is refused with HTTP 401 and `WWW-Authenticate: Bearer`, its body
 * `{"errors": [{"message", "extensions": {"code": "UNAUTHENTICATED", "status": 401}}]}` and no
 * `data`, as Apollo advises for a request that cannot be authenticated. The one exception is
 * an operation that reads nothing but the schema (`__schema`, `__type`, `__typename`) and
 * sends no credential: the IDEs introspect before a token is entered.
 */
export function credentialError(status: number, detail: string): AppError {
  return new AppError(status, titleFor(status), detail, {
    http: {
      status,
      headers: new Map(status === 401 ? [['www-authenticate', 'Bearer']] : []),
    },
  });
}

/** Root fields of the operation, through inline fragments and fragment spreads. */
function rootFields(
  selectionSet: SelectionSetNode,
  fragments: Record<string, FragmentDefinitionNode>,
  seen = new Set<string>(),
): string[] {
  return selectionSet.selections.flatMap((s) => {
    if (s.kind === Kind.FIELD) return [s.name.value];
    if (s.kind === Kind.INLINE_FRAGMENT) return rootFields(s.selectionSet, fragments, seen);
    const name = s.name.value;
    if (seen.has(name) || !fragments[name]) return [];
    seen.add(name);
    return rootFields(fragments[name].selectionSet, fragments, seen);
  });
}

/** The root fields an operation of `document` selects. */
export function rootFieldsOf(operation: OperationDefinitionNode, document: DocumentNode): string[] {
  const fragments = Object.fromEntries(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  return rootFields(operation.selectionSet, fragments);
}

const INTROSPECTION = new Set(['__schema', '__type', '__typename']);

/** Refuses, before execution, an operation that needs a credential when none was sent. */
export const requireCredential: ApolloServerPlugin<Context> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ contextValue, operation, document }) {
        if (contextValue.caller || !operation) return;
        if (rootFieldsOf(operation, document).every((f) => INTROSPECTION.has(f))) return;
        throw credentialError(401, 'the Authorization header is missing');
      },
    };
  },
};

/**
 * graphql-js appends "Did you mean ...?" to unknown names (fields, arguments, types, enum
 * values); those sentences would reveal the schema when introspection is off, so the whole
 * sentence is removed (graphql-armor's mask leaves a stray "?" and misses enum values).
 */
export const withoutSuggestions = (message: string): string =>
  message.replace(/\s*Did you mean [^?]*\?/g, '');
