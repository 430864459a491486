import { Field, Float, ID } from 'type-graphql';
import { ArrayMaxSize, IsOptional, IsUUID, Length, Matches, Max, Min, ValidateNested } from 'class-validator';
import { FileAsset } from '../../../entities/shared';
import { allOf } from '../../../family/field-decorators';

/**
 * The input fields sales and purchase invoices have alike (their lines, payments, amounts,
 * currency, subsidiary and attachments), declared once so the two cannot drift apart.
 */

/** Amounts a client may give (quantities, prices, payments); computed amounts are never input. */
const AMOUNT_LIMIT = 1e12;
/** More lines than any real invoice has, and few enough to keep a record within the body limit. */
const MAX_LINES = 1000;

/** The GraphQL type of a field, as `@Field` takes it. */
type GraphQLType = NonNullable<Parameters<typeof Field>[0]>;

/** The id of a line or payment of an invoice. */
export const LineId = () =>
  allOf(
    Field(() => ID, { nullable: true, description: 'Kept when given, generated otherwise.' }),
    IsOptional(),
    Length(1, 100),
  );

/** An amount a client gives: optional, within the amount limit. */
export const Amount = (description: string) =>
  allOf(
    Field(() => Float, { nullable: true, description }),
    IsOptional(),
    Min(-AMOUNT_LIMIT),
    Max(AMOUNT_LIMIT),
  );

/** An amount a client must give, within the amount limit. */
export const RequiredAmount = (description: string) =>
  allOf(
    Field(() => Float, { description }),
    Min(-AMOUNT_LIMIT),
    Max(AMOUNT_LIMIT),
  );

/** A line's tax rate. */
export const TaxRate = () =>
  allOf(
    Field(() => Float, { nullable: true, description: 'Percent, 0 to 100; 21 when not given.' }),
    IsOptional(),
    Min(0),
    Max(100),
  );

/** Optional text of at most `max` characters. */
export const Text = (max: number, description: string) =>
  allOf(
    Field(() => String, { nullable: true, description }),
    IsOptional(),
    Length(0, max),
  );

export const Currency = () =>
  allOf(
    Field(() => String, { nullable: true, description: 'ISO 4217 code; EUR when not given.' }),
    IsOptional(),
    Matches(/^[A-Za-z]{3}$/, { message: 'currency must be a three-letter ISO 4217 code' }),
  );

export const SubsidiaryId = () =>
  allOf(
    Field(() => String, { nullable: true, description: 'A subsidiary the caller has access to.' }),
    IsOptional(),
    IsUUID(),
  );

export const Attachments = () =>
  allOf(
    Field(() => [FileAsset], {
      nullable: true,
      description: 'Files attached to the invoice; replaces the list.',
    }),
    IsOptional(),
    ArrayMaxSize(1000),
  );

/** A list of nested inputs (lines, payments, orders) that replaces the stored list. */
export const Lines = (type: GraphQLType, description: string) =>
  allOf(
    Field(type, { nullable: true, description }),
    IsOptional(),
    ArrayMaxSize(MAX_LINES),
    ValidateNested({ each: true }),
  );
