import { Arg, Int } from 'type-graphql';
import { ARG_DOCS } from './descriptions';

/**
 * The paging arguments of the family's page and of the lists shaped like it (a user's
 * notifications, a webhook's deliveries), declared once.
 */
export const PageArg = {
  number: () => Arg('pageNumber', () => Int, { nullable: true, description: ARG_DOCS.pageNumber }),
  size: () => Arg('pageSize', () => Int, { nullable: true, description: ARG_DOCS.pageSize }),
};
