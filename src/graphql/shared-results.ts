import {
  createSourceEventStream,
  execute,
  GraphQLError,
  print,
  type ExecutionArgs,
  type ExecutionResult,
} from 'graphql';

/**
 * Subscriptions whose sockets share their results: graphql's own `subscribe`, except that a
 * payload offered to many subscriptions as one object (an event's envelope goes to every session
 * of its tenant as the same object, events/live.ts) is executed once per document and variables,
 * not once per socket. What a caller may see is decided before the payload is offered
 * (events/readable.ts); the fields of the payload do not depend on who asked, so the result is
 * the same for each (a result with errors is not kept for later ones). A payload made for one session (a
 * notification read in its recipient's transaction) is a new object each time, executed for its own socket
 * with the context `own` gives it (its fields may read: a notification's history).
 */
const executed = new WeakMap<object, Map<string, Promise<ExecutionResult>>>();
/** The results shared by many sockets, each with its JSON once a socket's message needed it. */
const shared = new WeakMap<ExecutionResult, { json?: string }>();

/**
 * The JSON of a result that sockets share (made once, at the first socket's message), or
 * undefined for any other value: a socket's message then carries it without serialising it again.
 */
export function sharedJsonOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const entry = shared.get(value as ExecutionResult);
  if (!entry) return undefined;
  return (entry.json ??= JSON.stringify(value));
}

/**
 * Where a payload made for one subscriber alone is executed: `execute` run with a context of
 * its own (a tenant transaction, for fields that read), or undefined for the subscription's.
 */
export type OwnExecution = (
  payload: object,
  execute: (contextValue: unknown) => Promise<ExecutionResult>,
) => Promise<ExecutionResult> | undefined;

export async function subscribeSharing(
  args: ExecutionArgs,
  own?: OwnExecution,
): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
  const source = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in source)) return source;
  const key = `${args.operationName ?? ''}\n${JSON.stringify(args.variableValues ?? {})}\n${print(args.document)}`;
  // The promise is what is shared: the sockets of one event ask for it all at once.
  const resultOf = (payload: unknown): Promise<ExecutionResult> => {
    if (typeof payload !== 'object' || payload === null)
      return Promise.resolve(execute({ ...args, rootValue: payload }));
    const alone = own?.(payload, async (contextValue) =>
      execute({ ...args, contextValue, rootValue: payload }),
    );
    // A context that could not be had (the credential gone, the database away) is the result's error.
    if (alone)
      return alone.catch((err: Error) => ({
        data: null,
        errors: [new GraphQLError(err.message, { originalError: err })],
      }));
    let results = executed.get(payload);
    if (!results) executed.set(payload, (results = new Map()));
    const known = results.get(key);
    if (known) return known;
    const result = Promise.resolve(execute({ ...args, rootValue: payload }));
    results.set(key, result);
    void result.then(
      (r) => (r.errors ? results.delete(key) : shared.set(r, {})),
      () => results.delete(key),
    );
    return result;
  };
  const events = source[Symbol.asyncIterator]();
  // A hand-made iterator rather than an async generator: ending the subscription must end the
  // source at once, not after its next event.
  const results: AsyncIterableIterator<ExecutionResult> = {
    [Symbol.asyncIterator]: () => results,
    async next() {
      const step = await events.next();
      return step.done ? step : { done: false, value: await resultOf(step.value) };
    },
    async return() {
      await events.return?.();
      return { done: true, value: undefined };
    },
    async throw(err: unknown) {
      await events.throw?.(err);
      return { done: true, value: undefined };
    },
  };
  return results;
}
