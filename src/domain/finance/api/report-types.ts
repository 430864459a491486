import { Field, Float, Int, ObjectType } from 'type-graphql';
import { DateTimeISOResolver } from '../../../schema/date-time';

/** Read models of invoicing: answers computed from invoices, not stored. */

@ObjectType({ description: 'Outstanding purchase invoices whose due date lies in one age range.' })
export class AgingBucket {
  @Field(() => String, { description: 'current, 1-30, 31-60, 61-90 or 90+ (days past due).' })
  bucket!: string;

  @Field(() => Int, { description: 'Invoices in the bucket.' })
  count!: number;

  @Field(() => Float, { description: 'Sum of the outstanding amounts.' })
  totalAmount!: number;
}

@ObjectType({ description: 'Outstanding purchase invoices of one currency by days past due.' })
export class AgingReport {
  @Field(() => [AgingBucket], { description: 'Every bucket, in age order, also when empty.' })
  buckets!: AgingBucket[];

  @Field(() => String, { description: 'Currency of the invoices counted.' })
  currency!: string;

  @Field(() => DateTimeISOResolver, { description: 'When the report was made.' })
  generatedAt!: Date;

  @Field(() => Float, { description: 'The sum of the bucket totals.' })
  totalOutstanding!: number;
}

/** Field names are the status values, so the REST answer is the documented map of status to count. */
@ObjectType({ description: 'How many sales invoices have each status (0 when none).' })
export class InvoiceStatusCounts {
  @Field(() => Int, { description: 'Invoices with status DRAFT.' }) DRAFT!: number;
  @Field(() => Int, { description: 'Invoices with status SENT.' }) SENT!: number;
  @Field(() => Int, { description: 'Invoices with status PARTIALLY_PAID.' }) PARTIALLY_PAID!: number;
  @Field(() => Int, { description: 'Invoices with status PAID.' }) PAID!: number;
  @Field(() => Int, { description: 'Invoices with status OVERDUE.' }) OVERDUE!: number;
  @Field(() => Int, { description: 'Invoices with status CANCELLED.' }) CANCELLED!: number;
}

@ObjectType({ description: 'The earliest and latest invoice dates (null when there are no invoices).' })
export class InvoiceDateRange {
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'Earliest invoice date, or null without invoices.',
  })
  min!: Date | null;

  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'Latest invoice date, or null without invoices.',
  })
  max!: Date | null;
}
