import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { Context } from '../context';
import { endTenantTransaction, forgoCallerCheck } from '../db/tenant-transaction';
import { classify } from '../error-mapping';
import { codeFor } from '../errors';
import { writeOriginOf } from '../family/write-origin';
import { jsonBytes } from '../http/json-bytes';
import type { Logger } from '../logger';
import { fieldErrorAtCommit, onceEachWrite } from './errors';

/** The answer to a GraphQL request as it will be sent: its errors already formatted. */
export interface GraphQLAnswer {
  errors?: readonly (GraphQLFormattedError | GraphQLError)[];
  data?: Record<string, unknown> | null;
  extensions?: Record<string, unknown>;
}

/**
 * Ends the transaction of a GraphQL request whose answer is decided, before the answer goes out.
 * A mutation that reported an error is rolled back whole and its data withheld, so an answer
 * never shows a change that was not kept; a mutation holding an Idempotency-Key stores its answer
 * with its writes. Should the end fail, the answer becomes that failure (its data withheld).
 */
export async function endOperation(
  context: Context,
  answer: GraphQLAnswer | undefined,
  { mutation, status }: { mutation: boolean; status: number },
  logger: Logger,
): Promise<void> {
  const failed = Boolean(answer?.errors?.length) && mutation;
  try {
    if (!failed && answer && context.idempotency) {
      await context.idempotency.record({
        status,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify(answer),
      });
    }
    await endTenantTransaction(context.em, !failed);
    if (failed && answer) {
      answer.data = null;
      answer.errors = onceEachWrite(answer.errors ?? []);
    }
  } catch (err) {
    // A write sent with the COMMIT, refused: the error of the field that wrote it.
    const origin = writeOriginOf(err);
    if (origin && answer) {
      answer.data = null;
      answer.errors = [fieldErrorAtCommit(err, origin, logger)];
      return;
    }
    const { status: failure, detail, expected } = classify(err);
    if (!expected) logger.error({ err }, 'commit failed');
    if (answer) {
      answer.data = null;
      answer.errors = [
        new GraphQLError(expected ? detail : 'Internal server error', {
          extensions: { code: codeFor(failure), status: failure },
        }),
      ];
    }
  }
}

/**
 * The answer's text as Apollo Server writes it (errors, data, extensions in that order, and a
 * newline), as UTF-8 bytes.
 */
export const answerBody = ({ errors, data, extensions }: GraphQLAnswer): Buffer =>
  jsonBytes({ errors, data, extensions }, '\n');

/**
 * Each GraphQL request runs in the transaction its context opened (see auth/authenticate.ts); it
 * ends before the response is sent (endOperation).
 */
export function requestTransaction(logger: Logger): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ contextValue, response, operation }) {
          if (!contextValue?.em?.isInTransaction()) return;
          // What was executed had its caller checked (graphql/compiled-execution.ts); an answer
          // given without executing (a document that does not validate) owes it nothing.
          forgoCallerCheck(contextValue.em);
          const answer = response.body.kind === 'single' ? response.body.singleResult : undefined;
          await endOperation(
            contextValue,
            answer,
            { mutation: operation?.operation === 'mutation', status: response.http.status ?? 200 },
            logger,
          );
        },
      };
    },
  };
}
