import { Field, Int, ObjectType, type ClassType } from 'type-graphql';

@ObjectType('Sort', { description: 'Whether a page is sorted.' })
export class SortInfo {
  @Field(() => Boolean, { description: 'True when no sort was applied.' }) empty!: boolean;
  @Field(() => Boolean, { description: 'True when the content is sorted.' }) sorted!: boolean;
  @Field(() => Boolean, { description: 'The opposite of sorted.' }) unsorted!: boolean;
}

@ObjectType({ description: 'The page that was asked for.' })
export class Pageable {
  @Field(() => Int, { description: 'Index of the first record of the page: pageNumber × pageSize.' })
  offset!: number;
  @Field(() => Int, { description: '0-based number of the page.' }) pageNumber!: number;
  @Field(() => Int, { description: 'Records per page, as asked.' }) pageSize!: number;
  @Field(() => Boolean, { description: 'Always true: every listing is paged.' }) paged!: boolean;
  @Field(() => Boolean, { description: 'Always false.' }) unpaged!: boolean;
  @Field(() => SortInfo, { description: 'The sort applied.' }) sort!: SortInfo;
}

/** The page envelope of docs/conventions.md, for items of type T. */
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
    @Field(() => [item], { description: 'The records of this page, in order.' }) content!: T[];
    @Field(() => Boolean, { description: 'True when the page holds no records.' }) empty!: boolean;
    @Field(() => Boolean, { description: 'True for page 0.' }) first!: boolean;
    @Field(() => Boolean, { description: 'True when no page follows.' }) last!: boolean;
    @Field(() => Int, { description: '0-based number of this page.' }) number!: number;
    @Field(() => Int, { description: 'Records on this page.' }) numberOfElements!: number;
    @Field(() => Int, { description: 'The page size asked for.' }) size!: number;
    @Field(() => Int, { description: 'Records matching, over all pages.' }) totalElements!: number;
    @Field(() => Int, { description: 'Pages at this size.' }) totalPages!: number;
    @Field(() => SortInfo, { description: 'The sort applied.' }) sort!: SortInfo;
    @Field(() => Pageable, { description: 'The page that was asked for.' }) pageable!: Pageable;
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
