import { Field, Int, ObjectType, type ClassType } from 'type-graphql';

@ObjectType('Sort', { description: 'Whether a page is sorted.' })
export class SortInfo {
  @Field(() => Boolean) empty!: boolean;
  @Field(() => Boolean) sorted!: boolean;
  @Field(() => Boolean) unsorted!: boolean;
}

@ObjectType({ description: 'The page that was asked for.' })
export class Pageable {
  @Field(() => Int) offset!: number;
  @Field(() => Int) pageNumber!: number;
  @Field(() => Int) pageSize!: number;
  @Field(() => Boolean) paged!: boolean;
  @Field(() => Boolean) unpaged!: boolean;
  @Field(() => SortInfo) sort!: SortInfo;
}

/** The page envelope of decisions.md, for items of type T. */
export interface Page<T> {
  content: T[];
  empty: boolean;
  first: boolean;
  last: boolean;
  number: number;
  numberOfElements: number;
  size: number;
  totalElements: number;
  totalPages: number;
  sort: SortInfo;
  pageable: Pageable;
}

const pageTypes = new Map<Function, Function>();

/** The GraphQL page type of `item` (one per item type, named `<Item>Page`). */
export function PageOf<T extends object>(item: ClassType<T>, name = item.name): ClassType<Page<T>> {
  const existing = pageTypes.get(item);
  if (existing) return existing as ClassType<Page<T>>;

  @ObjectType(`${name}Page`, { description: `A page of ${name}.` })
  class PageType implements Page<T> {
    @Field(() => [item]) content!: T[];
    @Field(() => Boolean) empty!: boolean;
    @Field(() => Boolean) first!: boolean;
    @Field(() => Boolean) last!: boolean;
    @Field(() => Int) number!: number;
    @Field(() => Int) numberOfElements!: number;
    @Field(() => Int) size!: number;
    @Field(() => Int) totalElements!: number;
    @Field(() => Int) totalPages!: number;
    @Field(() => SortInfo) sort!: SortInfo;
    @Field(() => Pageable) pageable!: Pageable;
  }
  pageTypes.set(item, PageType);
  return PageType;
}

export function toPage<T>(content: T[], total: number, page: number, size: number, sorted: boolean): Page<T> {
  const totalPages = size > 0 ? Math.ceil(total / size) : 0;
  const sort = { empty: !sorted, sorted, unsorted: !sorted };
  return {
    content,
    empty: content.length === 0,
    first: page === 0,
    last: page >= totalPages - 1,
    number: page,
    numberOfElements: content.length,
    size,
    totalElements: total,
    totalPages,
    sort,
    pageable: { offset: page * size, pageNumber: page, pageSize: size, paged: true, unpaged: false, sort },
  };
}
