import { Field, Float, Int, ObjectType } from 'type-graphql';
import { DateTimeISOResolver } from '../../graphql/date-time';

/** Read models of invoicing: answers computed from invoices, not stored. */

@ObjectType({ description: 'Outstanding purchase invoices whose due date lies in one age range.' })
export class AgingBucket {
  @Field(() => String, { description: 'current, 1-30, 31-60, 61-90 or 90+ (days past due).' })
  bucket!: string;

  @Field(() => Int)
  count!: number;

  @Field(() => Float, { description: 'Sum of the outstanding amounts.' })
  totalAmount!: number;
}

@ObjectType({ description: 'Outstanding purchase invoices of one currency by days past due.' })
export class AgingReport {
  @Field(() => [AgingBucket], { description: 'Every bucket, in age order, also when empty.' })
  buckets!: AgingBucket[];

  @Field(() => String)
  currency!: string;

  @Field(() => DateTimeISOResolver)
  generatedAt!: Date;

  @Field(() => Float, { description: 'The sum of the bucket totals.' })
  totalOutstanding!: number;
}

/** Field names are the status values, so the REST answer is the documented map of status to count. */
@ObjectType({ description: 'How many sales invoices have each status (0 when none).' })
export class InvoiceStatusCounts {
  @Field(() => Int) DRAFT!: number;
  @Field(() => Int) SENT!: number;
  @Field(() => Int) PARTIALLY_PAID!: number;
  @Field(() => Int) PAID!: number;
  @Field(() => Int) OVERDUE!: number;
  @Field(() => Int) CANCELLED!: number;
}

@ObjectType({ description: 'The earliest and latest invoice dates (null when there are no invoices).' })
export class InvoiceDateRange {
  @Field(() => DateTimeISOResolver, { nullable: true })
  min!: Date | null;

  @Field(() => DateTimeISOResolver, { nullable: true })
  max!: Date | null;
}
