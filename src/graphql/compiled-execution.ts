import type { ApolloServerOptionsWithGateway } from '@apollo/server';
import {
  execute,
  GraphQLError,
  printSchema,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type OperationTypeNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { Context } from '../context';
import { onlyReads } from '../db/tenant-transaction';
import type { CompileOutcome } from '../observability/metrics';
import { rootFieldsOf } from './errors';

type Gateway = NonNullable<ApolloServerOptionsWithGateway<Context>['gateway']>;
type Executor = NonNullable<Awaited<ReturnType<Gateway['load']>>['executor']>;

export type Run = (contextValue: Context, variables: Record<string, unknown> | undefined) => unknown;

/** A query operation ready to run compiled, and the name its metrics go under. */
export interface KnownQuery {
  run: Run;
  name: string | undefined;
}

/** Where compiled queries are remembered for the requests that skip Apollo (graphql/known-queries.ts). */
export interface QueryMemory {
  remember(source: string, operationName: string | undefined, query: KnownQuery): void;
}

/**
 * GraphQL requests executed as graphql-jit functions, through Apollo Server's `gateway` option:
 * the one place Apollo Server 5 accepts an executor (its migration guide points custom executors
 * there). Apollo still parses, validates (graphql-armor's rules included), runs every plugin and
 * formats the errors; only the execution step is replaced, with the same schema, resolvers and
 * graphql-shield rules the REST facade's compiled documents run.
 *
 * Compiling costs more than executing once (many times more for the IDEs' large introspection
 * query), so a document and operation runs on graphql-js the first time and is compiled when it
 * comes again; introspection always runs on graphql-js, as does a document graphql-jit cannot
 * compile. What is compiled lives as long as Apollo keeps the parsed document in its document
 * store (a bounded LRU), so it is bounded too. A query, once compiled, is also remembered in
 * `knownQueries` by its text, for the requests that can be answered without Apollo's request
 * pipeline (graphql/known-queries.ts).
 */
export function compiledExecution(
  schema: GraphQLSchema,
  onCompile: (outcome: CompileOutcome) => void = () => {},
  knownQueries?: QueryMemory,
): Gateway {
  const prepared = new WeakMap<DocumentNode, Map<string, Run | 'seen once'>>();

  const runOf = (
    document: DocumentNode,
    operation: OperationDefinitionNode,
    operationName: string | undefined,
    source: string,
  ): Run => {
    let byOperation = prepared.get(document);
    if (!byOperation) prepared.set(document, (byOperation = new Map()));
    const key = operationName ?? '';
    const known = byOperation.get(key);
    if (known && known !== 'seen once') return known;
    const interpreted: Run = (contextValue, variableValues) =>
      execute({ schema, document, contextValue, variableValues, operationName });
    if (rootFieldsOf(operation, document).some((f) => f === '__schema' || f === '__type')) {
      onCompile('fallback');
      byOperation.set(key, interpreted);
      return interpreted;
    }
    if (!known) {
      byOperation.set(key, 'seen once');
      return interpreted;
    }
    const jitted = compileQuery(schema, document, operationName);
    const run = isCompiledQuery(jitted) ? compiledRun(schema, document, operationName, jitted) : interpreted;
    onCompile(isCompiledQuery(jitted) ? 'compiled' : 'fallback');
    byOperation.set(key, run);
    if (isCompiledQuery(jitted) && operation.operation === 'query')
      knownQueries?.remember(source, operationName, { run, name: operation.name?.value });
    return run;
  };

  const executor: Executor = async ({ document, operation, request, source, context }) => {
    const run = runOf(document, operation, request.operationName ?? undefined, source);
    return runOperation(run, operation.operation, context as Context, request.variables);
  };

  return {
    onSchemaLoadOrUpdate(callback) {
      // Apollo asks for the schema before load() resolves; nothing here ever replaces it. The
      // SDL is for Apollo's reporting plugins, which this service does not install: printed only
      // if one asks, rather than at every start.
      callback({
        apiSchema: schema,
        get coreSupergraphSdl() {
          return printSchema(schema);
        },
      });
      return () => {};
    },
    load: async () => ({ executor }),
    stop: async () => {},
  };
}

/**
 * Runs an operation with the request's context. A context opened on a remembered caller is
 * checked before the answer; if the caller had changed, the run was rolled back and runs again on
 * the caller read afresh. (Apollo hands the executor its own copy of the context, which the
 * plugins see too: that one is renewed.)
 */
export async function runOperation(
  run: Run,
  type: OperationTypeNode,
  contextValue: Context,
  variables: Record<string, unknown> | undefined,
): Promise<ExecutionResult> {
  if (type === 'query' && contextValue.em) onlyReads(contextValue.em);
  const result = await run(contextValue, variables);
  if (contextValue.renewIfStale && (await contextValue.renewIfStale(contextValue)))
    return (await run(contextValue, variables)) as ExecutionResult;
  return result as ExecutionResult;
}

function compiledRun(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  jitted: CompiledQuery,
): Run {
  return async (contextValue, variableValues) => {
    const result = await jitted.query(undefined, contextValue, variableValues);
    // Only variables that do not coerce come back without data. graphql-js says so in its own
    // words, naming the variable and field at fault, which clients and Apollo's 400 expect;
    // running it stops at the same coercion, before any resolver.
    if (result.errors && !('data' in result))
      return execute({ schema, document, contextValue, variableValues, operationName });
    return result.errors ? { ...result, errors: result.errors.map(withExtensions) } : result;
  };
}

/**
 * graphql-jit makes a resolver's error with no `extensions` when the error thrown had none (a
 * database's refusal, MikroORM's lock failure), where graphql-js always gives it an object
 * (zalando-incubator/graphql-jit#234). Apollo Server reads `extensions.code` before formatting, and
 * without it answers a bare "Internal server error" with no path or status in place of the
 * field's error. Such an error is made again as graphql-js makes it, at the same place.
 */
function withExtensions(error: GraphQLError): GraphQLError {
  if (error.extensions) return error;
  const made = new GraphQLError(error.message, {
    path: error.path,
    originalError: error.originalError ?? undefined,
  });
  // graphql-js derives locations from AST nodes, which graphql-jit's error no longer holds.
  Object.defineProperty(made, 'locations', { value: error.locations, enumerable: true });
  return made;
}
