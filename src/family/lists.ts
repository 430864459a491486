import { Arg, Ctx, ID, Info, Query, Resolver, type ClassType } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import type { FilterQuery } from '@mikro-orm/core';
import type { Audited } from '../entities/tenant-scoped';
import type { Context } from '../context';
import { can, Requires } from '../permissions/rules';
import { isUuid } from '../limits';
import type { GroupDef } from './group';
import { joinedSelection } from './joined';
import type { FamilyService } from './service';

/** One resolver class per list query of `group`, each under the group's READ rule. */
export function listResolvers<T extends Audited>(group: GroupDef<T>, service: FamilyService<T>): ClassType[] {
  const rule = group.rules?.READ ?? can('READ', group.resource);
  return (group.lists ?? []).map((list) => {
    const byId = list.type() === ID;
    @Resolver(() => group.entity)
    class ListResolver {
      @Requires(rule)
      @Query(() => [group.entity], { name: list.name, description: list.description })
      list(
        @Arg(list.arg, list.type, { description: list.argDescription }) value: string,
        @Ctx() ctx: Context,
        @Info() info: GraphQLResolveInfo,
      ): Promise<T[]> {
        if (byId && !isUuid(value)) return Promise.resolve([]);
        const where = { [list.field]: list.contains ? { $contains: [value] } : value } as FilterQuery<T>;
        return service.list(ctx, where, list.sort, { detached: true, joined: joinedSelection(group, info) });
      }
    }
    return ListResolver;
  });
}
