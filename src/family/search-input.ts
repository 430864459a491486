import { Field, InputType, Int, registerEnumType } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';

export enum FilterOp {
  eq = 'eq',
  ne = 'ne',
  gt = 'gt',
  gte = 'gte',
  lt = 'lt',
  lte = 'lte',
  in = 'in',
  contains = 'contains',
  startsWith = 'startsWith',
  isNull = 'isNull',
  notNull = 'notNull',
}
registerEnumType(FilterOp, {
  name: 'FilterOp',
  description: 'How a filter compares a field with its value.',
  valuesConfig: {
    eq: { description: 'Equal to the value.' },
    ne: { description: 'Not equal to the value (records whose field is empty are kept).' },
    gt: { description: 'Greater than the value.' },
    gte: { description: 'Greater than or equal to the value.' },
    lt: { description: 'Less than the value.' },
    lte: { description: 'Less than or equal to the value.' },
    in: { description: 'Equal to one of the values (a list).' },
    contains: { description: 'Contains the text, case-insensitively.' },
    startsWith: { description: 'Starts with the text, case-insensitively.' },
    isNull: { description: 'The field is empty; takes no value.' },
    notNull: { description: 'The field has a value; takes no value.' },
  },
});

export enum Direction {
  ASC = 'ASC',
  DESC = 'DESC',
}
registerEnumType(Direction, {
  name: 'Direction',
  description: 'Sort direction: ascending or descending.',
  valuesConfig: {
    ASC: { description: 'Ascending: smallest, earliest or A first.' },
    DESC: { description: 'Descending: largest, latest or Z first.' },
  },
});

@InputType({
  description: 'One condition on a field; `value` is a list for `in`, absent for isNull/notNull.',
})
export class FilterInput {
  @Field(() => String, { description: 'A filterable field of the record.' })
  field!: string;

  @Field(() => FilterOp, { description: 'How the field is compared with the value.' })
  op!: FilterOp;

  @Field(() => GraphQLJSON, { nullable: true, description: 'What the field is compared with.' })
  value?: unknown;
}

@InputType({ description: 'One sort key.' })
export class SortInput {
  @Field(() => String, { description: 'A sortable field of the record.' })
  field!: string;

  @Field(() => Boolean, { defaultValue: true, description: 'False sorts descending.' })
  ascending: boolean = true;
}

@InputType({
  description: 'A dynamic search: every term must match a searchable field, every filter must hold.',
})
export class SearchInput {
  @Field(() => [String], {
    nullable: true,
    description: 'Terms; each must occur (case-insensitively) in a searchable field.',
  })
  search?: string[];

  @Field(() => [FilterInput], { nullable: true, description: 'Conditions; every one must hold.' })
  filters?: FilterInput[];

  @Field(() => [SortInput], { nullable: true, description: 'Sort keys, most significant first.' })
  sort?: SortInput[];

  @Field(() => Int, { nullable: true, description: '0-based page number (default 0).' })
  page?: number;

  @Field(() => Int, { nullable: true, description: 'Page size (default 20, at most 1000).' })
  size?: number;
}
