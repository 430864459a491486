import { Arg, Ctx, ID, Info, Int, Mutation, Query, Resolver, type ClassType } from 'type-graphql';
import { getNamedType, isObjectType, type GraphQLResolveInfo } from 'graphql';
import type { Audited } from '../entities/tenant-scoped';
import type { Context } from '../context';
import { can, Requires } from '../permissions/rules';
import type { Verb } from '../permissions/catalog';
import { ARG_DOCS, withArticle } from '../schema/descriptions';
import { PageArg } from '../schema/args';
import { HistoryPage } from '../history/history-types';
import type { HistoryRow } from '../history/query';
import { PageOf, type Page } from '../schema/page';
import { csvColumns, toCsv, type CsvColumn } from './csv';
import type { GroupDef } from './group';
import { Direction, SearchInput } from './search-input';
import { derivedOf, FamilyService } from './service';
import { lowerFirst } from './fields';
import { joinedSelection } from './joined';
import { WriteOrigin } from './write-origin';

/** Queries answer with views outside the unit of work (detached.ts): nothing is written to them. */
const VIEW = { detached: true } as const;

/** A page's records are its `content`. */
const CONTENT = 'content';

/**
 * The GraphQL face of the standard family for one group: written once, applied to every group.
 * Field names follow the group's names: `concepts(ids)`, `allConcepts`, `concept(id)`,
 * `conceptPage`, `searchConcepts`, `exportConceptsCsv`, `createConcept`, `updateConcept`,
 * `deleteConcept`, `deleteConcepts`.
 */
export function familyResolver<T extends Audited, C extends object, U extends object>(
  group: GroupDef<T, C, U>,
  service: FamilyService<T, C, U> = new FamilyService(group),
): ClassType {
  const { entity, name, plural, resource, createInput, updateInput } = group;
  const PageType = PageOf(entity, name);
  const rule = (verb: Verb) => group.rules?.[verb] ?? can(verb, resource);
  let columns: CsvColumn[] | undefined;

  @Resolver(() => entity)
  class FamilyResolver {
    @Requires(rule('READ'))
    @Query(() => [entity], {
      name: lowerFirst(plural),
      description: `${plural} by id, in the order asked; unknown ids are skipped.`,
    })
    byIds(
      @Arg('ids', () => [ID], { description: ARG_DOCS.ids }) ids: string[],
      @Ctx() ctx: Context,
      @Info() info: GraphQLResolveInfo,
    ): Promise<T[]> {
      return service.byIds(ctx, ids, { ...VIEW, joined: joinedSelection(group, info) });
    }

    @Requires(rule('READ'))
    @Query(() => [entity], {
      name: `all${plural}`,
      description: `Every ${name} of the tenant, oldest first.`,
    })
    all(@Ctx() ctx: Context): Promise<T[]> {
      return service.list(ctx, undefined, undefined, VIEW);
    }

    @Requires(rule('READ'))
    @Query(() => entity, {
      name: lowerFirst(name),
      nullable: true,
      description: `One ${name}, or null when it does not exist.`,
    })
    one(
      @Arg('id', () => ID, { description: ARG_DOCS.id }) id: string,
      @Ctx() ctx: Context,
      @Info() info: GraphQLResolveInfo,
    ): Promise<T | null> {
      return service.one(ctx, id, { ...VIEW, joined: joinedSelection(group, info) });
    }

    @Requires(rule('READ'))
    @Query(() => PageType, {
      name: `${lowerFirst(name)}Page`,
      description: `A page of ${plural}, optionally sorted and searched.`,
    })
    page(
      @Ctx() ctx: Context,
      @Info() info: GraphQLResolveInfo,
      @PageArg.number() pageNumber?: number,
      @PageArg.size() pageSize?: number,
      @Arg('sortBy', () => String, { nullable: true, description: ARG_DOCS.sortBy }) sortBy?: string,
      @Arg('direction', () => Direction, { nullable: true, description: ARG_DOCS.direction })
      direction?: Direction,
      @Arg('search', () => String, { nullable: true, description: ARG_DOCS.search }) search?: string,
    ): Promise<Page<T>> {
      const joined = joinedSelection(group, info, CONTENT);
      return service.page(ctx, { pageNumber, pageSize, sortBy, direction, search }, { ...VIEW, joined });
    }

    @Requires(rule('READ'))
    @Query(() => PageType, { name: `search${plural}`, description: `Dynamic search over ${plural}.` })
    search(
      @Arg('input', () => SearchInput, { nullable: true, description: ARG_DOCS.searchInput })
      input: SearchInput | undefined,
      @Ctx() ctx: Context,
      @Info() info: GraphQLResolveInfo,
    ): Promise<Page<T>> {
      return service.search(ctx, input ?? {}, undefined, {
        ...VIEW,
        joined: joinedSelection(group, info, CONTENT),
      });
    }

    @Requires(rule('READ'))
    @Query(() => String, {
      name: `export${plural}Csv`,
      description: `A page of the dynamic search as RFC 4180 CSV.`,
    })
    async csv(
      @Arg('input', () => SearchInput, { nullable: true, description: ARG_DOCS.searchInput })
      input: SearchInput | undefined,
      @Ctx() ctx: Context,
      @Info() info: GraphQLResolveInfo,
    ): Promise<string> {
      const page = await service.search(ctx, input ?? {}, undefined, { ...VIEW, derived: true });
      if (!columns) {
        const type = getNamedType(info.schema.getType(entity.name));
        if (!isObjectType(type)) throw new Error(`${entity.name} is not an object type`);
        const meta = ctx.em.getMetadata().get(entity.name);
        // A list of objects is a column only where the record's row holds it (`stored`), as JSON;
        // `events`, the history kept in a table of its own, is not (its own operations read it).
        const scalars = new Set(
          [...service.fieldsOf(ctx.em).values()].filter((f) => f.kind !== 'objects').map((f) => f.name),
        );
        columns = csvColumns(
          type,
          scalars,
          (f) => f in meta.properties && meta.properties[f].persist !== false,
          new Set(Object.keys(group.derived ?? {})),
        );
      }
      return toCsv(columns, page.content, derivedOf);
    }

    @Requires(rule('CREATE'))
    @Mutation(() => entity, {
      name: `create${name}`,
      description: `Creates ${withArticle(name)}; returns it as stored.`,
    })
    create(
      @Arg('input', () => createInput, { description: `The new ${name}.` }) input: C,
      @Ctx() ctx: Context,
      @Info() info: GraphQLResolveInfo,
    ): Promise<T> {
      return service.create(ctx, input, WriteOrigin.of(info));
    }

    @Requires(rule('UPDATE'))
    @Mutation(() => entity, {
      name: `update${name}`,
      description:
        'Changes the fields given; others stay. With expectedVersion, a record changed since is a 409.',
    })
    update(
      @Arg('id', () => ID, { description: ARG_DOCS.id }) id: string,
      @Arg('input', () => updateInput, { description: 'The fields to change.' }) input: U,
      @Ctx() ctx: Context,
      @Arg('expectedVersion', () => Int, {
        nullable: true,
        description: 'The version the change is based on.',
      })
      expectedVersion: number | undefined,
      @Info() info: GraphQLResolveInfo,
    ): Promise<T> {
      return service.update(ctx, id, input, expectedVersion, WriteOrigin.of(info));
    }

    @Requires(rule('DELETE'))
    @Mutation(() => Boolean, {
      name: `delete${name}`,
      description: 'True when the record existed and is now deleted.',
    })
    remove(
      @Arg('id', () => ID, { description: ARG_DOCS.id }) id: string,
      @Ctx() ctx: Context,
      @Info() info: GraphQLResolveInfo,
    ): Promise<boolean> {
      return service.remove(ctx, id, WriteOrigin.of(info));
    }

    @Requires(rule('READ'))
    @Query(() => HistoryPage, {
      name: `${lowerFirst(name)}History`,
      description: `The history of one ${name}, newest first, paged: each change's values before and after, who made it, in which request, and when; also of ${withArticle(name)} deleted within the retention period. A malformed id is a 400, an unknown one a 404.`,
    })
    history(
      @Arg('id', () => ID, { description: ARG_DOCS.id }) id: string,
      @Ctx() ctx: Context,
      @PageArg.number() pageNumber?: number,
      @PageArg.size() pageSize?: number,
    ): Promise<Page<HistoryRow>> {
      return service.historyOf(ctx, id, pageNumber, pageSize);
    }

    @Requires(rule('CREATE'))
    @Mutation(() => entity, {
      name: `restore${name}`,
      description: `Brings back ${withArticle(name)} deleted within the retention period, as it was, under its id (a RESTORE entry in its history). 404 when it was never deleted or longer ago; 409 when it exists, or when a record it refers to is gone too (the error names the field).`,
    })
    restore(@Arg('id', () => ID, { description: ARG_DOCS.id }) id: string, @Ctx() ctx: Context): Promise<T> {
      return service.restore(ctx, id);
    }

    @Requires(rule('DELETE'))
    @Mutation(() => Int, {
      name: `delete${plural}`,
      description: 'Deletes the records named; returns how many existed.',
    })
    removeMany(
      @Arg('ids', () => [ID], { description: ARG_DOCS.ids }) ids: string[],
      @Ctx() ctx: Context,
      @Info() info: GraphQLResolveInfo,
    ): Promise<number> {
      return service.removeMany(ctx, ids, WriteOrigin.of(info));
    }
  }
  Object.defineProperty(FamilyResolver, 'name', { value: `${name}FamilyResolver` });
  return FamilyResolver;
}
