import { Field, InputType, Int } from 'type-graphql';
import {
  ArrayMaxSize,
  IsEmail,
  IsInt,
  IsOptional,
  IsUUID,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { DateTimeISOResolver } from '../../../schema/date-time';
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
} from '../entities/invoice';
import { FileAsset } from '../../../entities/shared';
import * as InvoiceField from './input-fields';

@InputType({ description: 'A line of a sales invoice; its amounts are computed from these fields.' })
export class InvoiceRowInput {
  @InvoiceField.LineId()
  id?: string;

  @InvoiceField.Text(2000, INVOICE_ROW_DOCS.description)
  description?: string;

  @Field(() => String, { nullable: true, description: INVOICE_ROW_DOCS.productId })
  productId?: string;

  @InvoiceField.Amount('1 when not given (ITEM and DISCOUNT rows).')
  quantity?: number;

  @Field(() => InvoiceQuantityType, { nullable: true, description: 'AMOUNT when not given.' })
  quantityType?: InvoiceQuantityType;

  @InvoiceField.Amount('0 when not given (ITEM and DISCOUNT rows).')
  unitPrice?: number;

  @InvoiceField.TaxRate()
  taxRate?: number;

  @Field(() => InvoiceRowType, { nullable: true, description: 'ITEM when not given.' })
  type?: InvoiceRowType;
}

@InputType({ description: 'A payment received (negative: a refund made).' })
export class InvoiceTransactionInput {
  @InvoiceField.LineId()
  id?: string;

  @Field(() => String, { nullable: true, description: INVOICE_TRANSACTION_DOCS.accountId })
  accountId?: string;

  @InvoiceField.Text(2000, INVOICE_TRANSACTION_DOCS.description)
  description?: string;

  @InvoiceField.RequiredAmount(INVOICE_TRANSACTION_DOCS.amount)
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

  @InvoiceField.Currency()
  currency?: string;

  @InvoiceField.Text(20000, INVOICE_DOCS.mailBody)
  mailBody?: string;

  @Field(() => String, {
    nullable: true,
    description: INVOICE_DOCS.milestoneId,
  })
  @IsOptional()
  @IsUUID()
  milestoneId?: string;

  @InvoiceField.Text(20000, INVOICE_DOCS.note)
  note?: string;

  @Field(() => String, {
    nullable: true,
    description: 'An opportunity of the tenant; its customer is the client when none is given.',
  })
  @IsOptional()
  @IsUUID()
  opportunityId?: string;

  @InvoiceField.Text(200, INVOICE_DOCS.paymentReference)
  paymentReference?: string;

  @InvoiceField.Text(20000, INVOICE_DOCS.reminderBody)
  reminderBody?: string;

  @Field(() => String, { nullable: true, description: INVOICE_DOCS.salesOrderId })
  @IsOptional()
  @IsUUID()
  salesOrderId?: string;

  @InvoiceField.SubsidiaryId()
  subsidiaryId?: string;

  @Field(() => String, { nullable: true, description: INVOICE_DOCS.creditedInvoiceId })
  @IsOptional()
  @IsUUID()
  creditedInvoiceId?: string;

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

  @InvoiceField.Attachments()
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

  @InvoiceField.Lines(
    () => [InvoiceRowInput],
    'The lines of the invoice; replaces the list. Totals are computed, client-sent totals ignored.',
  )
  rows?: InvoiceRowInput[];

  @InvoiceField.Lines(() => [InvoiceTransactionInput], 'Payments received; replaces the list.')
  transactions?: InvoiceTransactionInput[];
}

@InputType({
  description:
    'How to mail an invoice; every field may be left out: recipients default to contactEmail (else the customer’s e-mail), the body to mailBody (else the built-in text in the tenant’s language).',
})
export class SendInvoiceInput {
  @Field(() => [String], {
    nullable: true,
    description: 'E-mail addresses to send to, one message each (at most 20).',
  })
  @IsOptional()
  @ArrayMaxSize(20)
  @IsEmail({}, { each: true })
  recipients?: string[];

  @Field(() => String, {
    nullable: true,
    description: 'Subject line; a built-in one naming the invoice when absent.',
  })
  @IsOptional()
  @MaxLength(500)
  subject?: string;

  @Field(() => String, {
    nullable: true,
    description: 'Body text; mailBody, then the built-in text, when absent.',
  })
  @IsOptional()
  @MaxLength(20000)
  body?: string;
}
