import { Ctx, Extensions, FieldResolver, Resolver, Root, type ClassType } from 'type-graphql';
import type { Context } from '../../../context';
import { StockTransfer } from '../../inventory/entities/stock-transfer';
import { EnrichedStockTransfer } from '../../inventory';
import { Event } from '../../../entities/event';
import { Audited } from '../../../entities/tenant-scoped';
import { joinedOf } from '../../../family/service';
import type { Page } from '../../../schema/page';
import type { GroupDef } from '../../../family/group';
import { loadEvents } from '../../../family/record-events';
import { historyPage, type HistoryRow } from '../../../history/query';
import { PageArg } from '../../../schema/args';
import { AUDIT_DOCS } from '../../../schema/descriptions';
import { HistoryPage } from '../../../history/history-types';

/**
 * `events` and `history` of one record type. `events` comes with the record when its statement
 * selected it (the groups' joined value, family/record-events.ts), else from one statement for every
 * record of the request; `history` pages through all of it, newest first.
 */
function recordHistoryResolver(type: ClassType<Audited>, recordType = type.name): Function {
  @Resolver(() => type)
  class RecordHistoryResolver {
    @FieldResolver(() => [Event], { description: AUDIT_DOCS.events })
    events(@Root() record: Audited, @Ctx() ctx: Context): Event[] | Promise<Event[]> {
      return joinedOf<Event[]>(record, 'events') ?? loadEvents(ctx, recordType, record.id);
    }

    // GraphQL only: a REST answer's record stays as the specification shows it (GET .../find/{id}/history pages it).
    @Extensions({ rest: false })
    @FieldResolver(() => HistoryPage, {
      description:
        'Every entry of the history of the record, newest first, paged: the values before and after of each change, who made it, in which request, and when.',
    })
    history(
      @Root() record: Audited,
      @Ctx() ctx: Context,
      @PageArg.number() pageNumber?: number,
      @PageArg.size() pageSize?: number,
    ): Promise<Page<HistoryRow>> {
      return historyPage(ctx.em, { recordType, recordId: record.id }, pageNumber, pageSize);
    }
  }
  Object.defineProperty(RecordHistoryResolver, 'name', { value: `${type.name}HistoryResolver` });
  return RecordHistoryResolver;
}

// Made once per type and process: type-graphql keeps decorator metadata globally, so a second
// resolver class for a type would declare its fields twice.
const made = new Map<Function, Function>();

function resolverOf(type: ClassType<Audited>, recordType = type.name): Function {
  let resolver = made.get(type);
  if (!resolver) made.set(type, (resolver = recordHistoryResolver(type, recordType)));
  return resolver;
}

/**
 * The `events` and `history` resolvers of the groups' record types (one per type, however many
 * groups show it), and of the other forms a record type is shown in.
 */
export function recordHistoryResolvers(groups: readonly GroupDef<any, any, any>[]): Function[] {
  return [...new Set(groups.map((g) => g.entity as ClassType<Audited>))]
    .map((entity) => resolverOf(entity))
    .concat(resolverOf(EnrichedStockTransfer, StockTransfer.name));
}
