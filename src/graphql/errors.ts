import type { ApolloServerPlugin } from '@apollo/server';
import {
  GraphQLError,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLFormattedError,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { Context } from '../context';
import { classify } from '../error-mapping';
import { AppError, codeFor, titleFor } from '../errors';
import { writeOriginOf, type WriteOrigin } from '../family/write-origin';
import type { Logger } from '../logger';

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

/**
 * Errors a written record's refusal gave, answered as the field that wrote it (`fieldError`):
 * when the write went out with a later statement, every statement from there on failed with it.
 */
const refusedWrites = new WeakMap<object, WriteOrigin>();

/** The error as the answer shows it, from what Apollo made of it (`formatted`) and the error itself. */
export function fieldError(
  formatted: GraphQLFormattedError,
  error: unknown,
  logger: Logger,
): GraphQLFormattedError {
  const { status, detail, expected, errors } = classify(error);
  if (!expected) logger.error({ err: error }, 'unexpected GraphQL error');
  // Apollo codes what a resolver throws INTERNAL_SERVER_ERROR; a refusal mapped to a 4xx (a
  // database refusal, say) is the caller's to mend, coded by its status as an AppError is.
  const given = formatted.extensions?.code;
  const code =
    status === 500
      ? 'INTERNAL_SERVER_ERROR'
      : given && given !== 'INTERNAL_SERVER_ERROR'
        ? given
        : codeFor(status);
  // A record's insert or deletion sent with a later statement (family/write-origin.ts): its
  // refusal is the error of the field that wrote it, as when it was sent on its own.
  const origin = writeOriginOf(originalOf(error));
  const at = origin ? new GraphQLError('', { nodes: origin.nodes, path: origin.path }) : formatted;
  const answer: GraphQLFormattedError = {
    message: expected ? withoutSuggestions(detail) : 'Internal server error',
    locations: at.locations,
    path: at.path,
    extensions: { code, status, ...(errors ? { errors } : {}) },
  };
  if (origin) refusedWrites.set(answer, origin);
  return answer;
}

/**
 * What Apollo's formatting would have made of `error` had the field of `origin` thrown it: the
 * error of a write that went out with the COMMIT, which failed.
 */
export function fieldErrorAtCommit(
  error: unknown,
  origin: WriteOrigin,
  logger: Logger,
): GraphQLFormattedError {
  const located = new GraphQLError(error instanceof Error ? error.message : String(error), {
    nodes: origin.nodes,
    path: origin.path,
    originalError: error instanceof Error ? error : undefined,
  });
  const formatted = {
    ...located.toJSON(),
    extensions: { ...located.extensions, code: located.extensions.code ?? 'INTERNAL_SERVER_ERROR' },
  };
  return fieldError(formatted, error, logger);
}

/**
 * The answer's errors with a refused write's shown once: each statement after it failed with the
 * same error, where the field that wrote it failed once, alone, when its write went out at once.
 */
export function onceEachWrite(
  errors: readonly (GraphQLFormattedError | GraphQLError)[],
): (GraphQLFormattedError | GraphQLError)[] {
  const seen = new Set<WriteOrigin>();
  return errors.filter((e) => {
    const origin = refusedWrites.get(e);
    if (!origin) return true;
    if (seen.has(origin)) return false;
    seen.add(origin);
    return true;
  });
}

function originalOf(error: unknown): unknown {
  let original = error;
  while (original instanceof GraphQLError && original.originalError) original = original.originalError;
  return original;
}
