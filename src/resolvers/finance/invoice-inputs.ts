import { Field, Float, ID, InputType, Int } from 'type-graphql';
import { DateTimeISOResolver } from '../../graphql/date-time';
import {
  ArrayMaxSize,
  IsEmail,
  IsInt,
  IsOptional,
  IsUUID,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  InvoicePaymentMethod,
  InvoiceQuantityType,
  InvoiceRowType,
  InvoiceStatus,
  InvoiceType,
  INVOICE_DOCS,
  RECURRING_AGREEMENT_DOCS,
  INVOICE_TRANSACTION_DOCS,
  INVOICE_ROW_DOCS,
} from '../../entities/finance/invoice';
import { FileAsset } from '../../entities/shared';

/** Amounts a client may give (quantities, prices, payments); computed amounts are never input. */
const AMOUNT_LIMIT = 1e12;
/** More lines than any real invoice has, and few enough to keep a record within the body limit. */
const MAX_ROWS = 1000;

@InputType({ description: 'A line of a sales invoice; its amounts are computed from these fields.' })
export class InvoiceRowInput {
  @Field(() => ID, { nullable: true, description: 'Kept when given, generated otherwise.' })
  @IsOptional()
  @Length(1, 100)
  id?: string;

  @Field(() => String, { nullable: true, description: INVOICE_ROW_DOCS.description })
  @IsOptional()
  @Length(0, 2000)
  description?: string;

  @Field(() => String, { nullable: true, description: INVOICE_ROW_DOCS.productId })
  productId?: string;

  @Field(() => Float, { nullable: true, description: '1 when not given (ITEM and DISCOUNT rows).' })
  @IsOptional()
  @Min(-AMOUNT_LIMIT)
  @Max(AMOUNT_LIMIT)
  quantity?: number;

  @Field(() => InvoiceQuantityType, { nullable: true, description: 'AMOUNT when not given.' })
  quantityType?: InvoiceQuantityType;

  @Field(() => Float, { nullable: true, description: '0 when not given (ITEM and DISCOUNT rows).' })
  @IsOptional()
  @Min(-AMOUNT_LIMIT)
  @Max(AMOUNT_LIMIT)
  unitPrice?: number;

  @Field(() => Float, { nullable: true, description: 'Percent, 0 to 100; 21 when not given.' })
  @IsOptional()
  @Min(0)
  @Max(100)
  taxRate?: number;

  @Field(() => InvoiceRowType, { nullable: true, description: 'ITEM when not given.' })
  type?: InvoiceRowType;
}

@InputType({ description: 'A payment received (negative: a refund made).' })
export class InvoiceTransactionInput {
  @Field(() => ID, { nullable: true, description: 'Kept when given, generated otherwise.' })
  @IsOptional()
  @Length(1, 100)
  id?: string;

  @Field(() => String, { nullable: true, description: INVOICE_TRANSACTION_DOCS.accountId })
  accountId?: string;

  @Field(() => String, { nullable: true, description: INVOICE_TRANSACTION_DOCS.description })
  @IsOptional()
  @Length(0, 2000)
  description?: string;

  @Field(() => Float, { description: INVOICE_TRANSACTION_DOCS.amount })
  @Min(-AMOUNT_LIMIT)
  @Max(AMOUNT_LIMIT)
  amount!: number;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Now when not given.' })
  date?: Date;

  @Field(() => InvoicePaymentMethod, { nullable: true, description: INVOICE_TRANSACTION_DOCS.paymentMethod })
  paymentMethod?: InvoicePaymentMethod;
}

@InputType({ description: 'How a recurring invoice repeats; at least one interval must be above 0.' })
export class RecurringAgreementInput {
  @Field(() => Boolean, { nullable: true, description: RECURRING_AGREEMENT_DOCS.autoSend })
  autoSend?: boolean;
  @Field(() => DateTimeISOResolver, { nullable: true, description: RECURRING_AGREEMENT_DOCS.endDate })
  endDate?: Date;

  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'invoiceDate plus the intervals when not given.',
  })
  nextInvoiceDate?: Date;

  @Field(() => Int, { nullable: true, description: RECURRING_AGREEMENT_DOCS.intervalDays })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(3660)
  intervalDays?: number;

  @Field(() => Int, { nullable: true, description: RECURRING_AGREEMENT_DOCS.intervalMonths })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(120)
  intervalMonths?: number;
}

@InputType({ description: 'A reminder that was sent; createdBy is the caller for new reminders.' })
export class InvoiceReminderInput {
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Now when not given.' })
  sentOn?: Date;
}

/**
 * A sales invoice as a client writes it, for create and update alike (on update, absent fields
 * stay as they are). Numbers, due date, totals, paid amounts and datePaid are computed, so they
 * are not inputs; a REST body that carries them has them dropped.
 */
@InputType({ description: 'A sales invoice to create, or the changes to make to one.' })
export class InvoiceInput {
  @Field(() => String, { nullable: true, description: 'A customer of the tenant.' })
  @IsOptional()
  @IsUUID()
  clientId?: string;

  @Field(() => String, { nullable: true, description: INVOICE_DOCS.contactEmail })
  @IsOptional()
  @IsEmail()
  contactEmail?: string;

  @Field(() => String, { nullable: true, description: 'ISO 4217 code; EUR when not given.' })
  @IsOptional()
  @Matches(/^[A-Za-z]{3}$/, { message: 'currency must be a three-letter ISO 4217 code' })
  currency?: string;

  @Field(() => String, { nullable: true, description: INVOICE_DOCS.mailBody })
  @IsOptional()
  @Length(0, 20000)
  mailBody?: string;

  @Field(() => String, {
    nullable: true,
    description: INVOICE_DOCS.milestoneId,
  })
  @IsOptional()
  @IsUUID()
  milestoneId?: string;

  @Field(() => String, { nullable: true, description: INVOICE_DOCS.note })
  @IsOptional()
  @Length(0, 20000)
  note?: string;

  @Field(() => String, {
    nullable: true,
    description: 'An opportunity of the tenant; its customer is the client when none is given.',
  })
  @IsOptional()
  @IsUUID()
  opportunityId?: string;

  @Field(() => String, { nullable: true, description: INVOICE_DOCS.paymentReference })
  @IsOptional()
  @Length(0, 200)
  paymentReference?: string;

  @Field(() => String, { nullable: true, description: INVOICE_DOCS.reminderBody })
  @IsOptional()
  @Length(0, 20000)
  reminderBody?: string;

  @Field(() => String, { nullable: true, description: INVOICE_DOCS.salesOrderId })
  @IsOptional()
  @IsUUID()
  salesOrderId?: string;

  @Field(() => String, { nullable: true, description: 'A subsidiary the caller has access to.' })
  @IsOptional()
  @IsUUID()
  subsidiaryId?: string;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Now when not given.' })
  invoiceDate?: Date;

  @Field(() => Int, { nullable: true, description: 'Days from invoiceDate to dueDate; 30 when not given.' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(3650)
  paymentTermDays?: number;

  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: INVOICE_DOCS.overdueNotifiedAt,
  })
  overdueNotifiedAt?: Date;

  @Field(() => InvoiceStatus, {
    nullable: true,
    description: 'DRAFT when not given. PARTIALLY_PAID and PAID follow from transactions only.',
  })
  status?: InvoiceStatus;

  @Field(() => InvoiceType, { nullable: true, description: 'MANUAL when not given.' })
  type?: InvoiceType;

  @Field(() => [String], { nullable: true, description: 'Ids of the sent mails that carried the invoice.' })
  @IsOptional()
  @ArrayMaxSize(1000)
  sentMails?: string[];

  @Field(() => [FileAsset], {
    nullable: true,
    description: 'Files attached to the invoice; replaces the list.',
  })
  @IsOptional()
  @ArrayMaxSize(1000)
  attachments?: FileAsset[];

  @Field(() => FileAsset, { nullable: true, description: INVOICE_DOCS.pdf })
  pdf?: FileAsset;

  @Field(() => RecurringAgreementInput, {
    nullable: true,
    description: INVOICE_DOCS.recurringAgreement,
  })
  @IsOptional()
  @ValidateNested()
  recurringAgreement?: RecurringAgreementInput;

  @Field(() => [InvoiceReminderInput], {
    nullable: true,
    description: 'Payment reminders sent; replaces the list.',
  })
  @IsOptional()
  @ArrayMaxSize(1000)
  reminders?: InvoiceReminderInput[];

  @Field(() => [InvoiceRowInput], {
    description:
      'The lines of the invoice; replaces the list. Totals are computed, client-sent totals ignored.',
    nullable: true,
  })
  @IsOptional()
  @ArrayMaxSize(MAX_ROWS)
  @ValidateNested({ each: true })
  rows?: InvoiceRowInput[];

  @Field(() => [InvoiceTransactionInput], {
    nullable: true,
    description: 'Payments received; replaces the list.',
  })
  @IsOptional()
  @ArrayMaxSize(MAX_ROWS)
  @ValidateNested({ each: true })
  transactions?: InvoiceTransactionInput[];
}
