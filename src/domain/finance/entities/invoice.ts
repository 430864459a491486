import { Entity, Unique } from '@mikro-orm/core';
import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import {
  DateTimeColumn,
  DecimalColumn,
  EnumColumn,
  IntColumn,
  JsonColumn,
  TenantIndexes,
  TextColumn,
  TextListColumn,
  UuidColumn,
} from '../../../entities/columns';
import { AUDIT_DOCS } from '../../../schema/descriptions';
import { DateTimeISOResolver } from '../../../schema/date-time';
import { Audited } from '../../../entities/tenant-scoped';
import { FileAsset } from '../../../entities/shared';
import { INVOICE_ROW_SHARED_DOCS, INVOICE_SHARED_DOCS } from './invoice-docs';

export enum InvoiceStatus {
  DRAFT = 'DRAFT',
  SENT = 'SENT',
  PARTIALLY_PAID = 'PARTIALLY_PAID',
  PAID = 'PAID',
  OVERDUE = 'OVERDUE',
  CANCELLED = 'CANCELLED',
}
registerEnumType(InvoiceStatus, {
  name: 'InvoiceStatus',
  description: 'Where a sales invoice stands; PARTIALLY_PAID and PAID follow from its transactions.',
  valuesConfig: {
    DRAFT: { description: 'Being written.' },
    SENT: { description: 'Sent to the customer.' },
    PARTIALLY_PAID: { description: 'Paid in part (derived from transactions).' },
    PAID: { description: 'Paid in full (derived from transactions).' },
    OVERDUE: { description: 'Past its due date and not paid.' },
    CANCELLED: { description: 'Cancelled; final.' },
  },
});

export enum InvoiceType {
  MANUAL = 'MANUAL',
  RECURRING = 'RECURRING',
  CREDIT_NOTE = 'CREDIT_NOTE',
  DEPOSIT = 'DEPOSIT',
}
registerEnumType(InvoiceType, {
  name: 'InvoiceType',
  description: 'What kind of sales invoice it is.',
  valuesConfig: {
    MANUAL: { description: 'Written by hand.' },
    RECURRING: { description: 'Made by a recurring agreement.' },
    CREDIT_NOTE: { description: 'Credits an earlier invoice.' },
    DEPOSIT: { description: 'Asks for a deposit.' },
  },
});

export enum InvoiceQuantityType {
  AMOUNT = 'AMOUNT',
  HOURS = 'HOURS',
  DAYS = 'DAYS',
  PERCENTAGE = 'PERCENTAGE',
}
registerEnumType(InvoiceQuantityType, {
  name: 'InvoiceQuantityType',
  description: 'The unit of a row quantity; PERCENTAGE means a percentage of the unit price.',
  valuesConfig: {
    AMOUNT: { description: 'A number of items.' },
    HOURS: { description: 'Hours.' },
    DAYS: { description: 'Days.' },
    PERCENTAGE: { description: 'A percentage of the unit price.' },
  },
});

export enum InvoiceRowType {
  ITEM = 'ITEM',
  TEXT = 'TEXT',
  DISCOUNT = 'DISCOUNT',
}
registerEnumType(InvoiceRowType, {
  name: 'InvoiceRowType',
  description: 'ITEM charges, TEXT only describes (no amount), DISCOUNT reduces the total.',
  valuesConfig: {
    ITEM: { description: 'A charged line.' },
    TEXT: { description: 'A line of text only.' },
    DISCOUNT: { description: 'A discount.' },
  },
});

export enum InvoicePaymentMethod {
  CREDIT_CARD = 'CREDIT_CARD',
  BANK_TRANSFER = 'BANK_TRANSFER',
  DIRECT_DEBIT = 'DIRECT_DEBIT',
  CASH = 'CASH',
  PAYPAL = 'PAYPAL',
  IDEAL = 'IDEAL',
  OTHER = 'OTHER',
}
registerEnumType(InvoicePaymentMethod, {
  name: 'InvoicePaymentMethod',
  description: 'How a customer paid.',
  valuesConfig: {
    CREDIT_CARD: { description: 'Credit card.' },
    BANK_TRANSFER: { description: 'Bank transfer.' },
    DIRECT_DEBIT: { description: 'Direct debit.' },
    CASH: { description: 'Cash.' },
    PAYPAL: { description: 'PayPal.' },
    IDEAL: { description: 'iDEAL.' },
    OTHER: { description: 'Any other way.' },
  },
});

/** What InvoiceRow fields mean, shared with the inputs that set them. */
export const INVOICE_ROW_DOCS = {
  ...INVOICE_ROW_SHARED_DOCS,
  productId: 'Id of the product sold.',
} as const;

@ObjectType({ description: 'One line of a sales invoice; its amounts are computed by the service.' })
export class InvoiceRow {
  @Field(() => ID, { description: INVOICE_ROW_DOCS.id }) id!: string;
  @Field(() => String, { nullable: true, description: INVOICE_ROW_DOCS.description }) description?:
    string | null;
  @Field(() => String, { nullable: true, description: INVOICE_ROW_DOCS.productId }) productId?: string | null;
  @Field(() => Float, { nullable: true, description: 'How many (or what percentage, for PERCENTAGE rows).' })
  quantity?: number | null;
  @Field(() => InvoiceQuantityType, { nullable: true, description: 'What the quantity counts.' })
  quantityType?: InvoiceQuantityType | null;
  @Field(() => Float, { nullable: true, description: INVOICE_ROW_DOCS.unitPrice }) unitPrice?: number | null;
  @Field(() => Float, { nullable: true, description: INVOICE_ROW_DOCS.taxRate })
  taxRate?: number | null;
  @Field(() => Float, {
    description: 'Tax of the row: total × taxRate / 100 (default rate 21), rounded to cents; computed.',
  })
  taxAmount!: number;
  @Field(() => Float, {
    description:
      'Quantity × unit price (PERCENTAGE rows: that percent of the unit price), rounded to cents; computed.',
  })
  total!: number;
  @Field(() => Float, { description: INVOICE_ROW_DOCS.totalWithTax }) totalWithTax!: number;
  @Field(() => InvoiceRowType, { nullable: true, description: 'What kind of line it is.' })
  type?: InvoiceRowType | null;
}

/** What InvoiceTransaction fields mean, shared with the inputs that set them. */
export const INVOICE_TRANSACTION_DOCS = {
  accountId: 'Id of the account the money moved on.',
  description: 'What the transaction is.',
  amount: 'Amount received; the transactions make the paid states.',
  paymentMethod: 'How it was paid.',
} as const;

@ObjectType({ description: 'A payment (or, negative, a refund) received for a sales invoice.' })
export class InvoiceTransaction {
  @Field(() => ID, { description: 'Id of the transaction.' }) id!: string;
  @Field(() => String, { nullable: true, description: INVOICE_TRANSACTION_DOCS.accountId }) accountId?:
    string | null;
  @Field(() => String, { nullable: true, description: INVOICE_TRANSACTION_DOCS.description }) description?:
    string | null;
  @Field(() => Float, { description: INVOICE_TRANSACTION_DOCS.amount })
  amount!: number;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When the money came in.' }) date?:
    string | null;
  @Field(() => InvoicePaymentMethod, { nullable: true, description: INVOICE_TRANSACTION_DOCS.paymentMethod })
  paymentMethod?: InvoicePaymentMethod | null;
  @Field(() => String, { nullable: true, description: AUDIT_DOCS.tenantId }) tenantId?: string | null;
  @Field(() => DateTimeISOResolver, { nullable: true, description: AUDIT_DOCS.created }) created?:
    string | null;
  @Field(() => String, { nullable: true, description: AUDIT_DOCS.createdBy }) createdBy?: string | null;
  @Field(() => DateTimeISOResolver, { nullable: true, description: AUDIT_DOCS.updated }) updated?:
    string | null;
  @Field(() => String, { nullable: true, description: AUDIT_DOCS.updatedBy }) updatedBy?: string | null;
}

/** What RecurringAgreement fields mean, shared with the inputs that set them. */
export const RECURRING_AGREEMENT_DOCS = {
  autoSend: 'True to send each new invoice without review.',
  endDate: 'When the agreement ends.',
  intervalDays: 'Days between invoices.',
  intervalMonths: 'Months between invoices.',
} as const;

@ObjectType({ description: 'How a recurring invoice repeats.' })
export class RecurringAgreement {
  @Field(() => Boolean, { nullable: true, description: RECURRING_AGREEMENT_DOCS.autoSend })
  autoSend?: boolean | null;
  @Field(() => DateTimeISOResolver, { nullable: true, description: RECURRING_AGREEMENT_DOCS.endDate })
  endDate?: string | null;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When the next invoice is made.' })
  nextInvoiceDate?: string | null;
  @Field(() => Int, { nullable: true, description: RECURRING_AGREEMENT_DOCS.intervalDays }) intervalDays?:
    number | null;
  @Field(() => Int, { nullable: true, description: RECURRING_AGREEMENT_DOCS.intervalMonths })
  intervalMonths?: number | null;
}

@ObjectType({ description: 'A payment reminder that was sent.' })
export class InvoiceReminder {
  @Field(() => String, { nullable: true, description: 'E-mail of the user who sent the reminder.' })
  createdBy?: string | null;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When the reminder was sent.' }) sentOn?:
    string | null;
}

/** What Invoice fields mean, shared with the inputs that set them. */
export const INVOICE_DOCS = {
  ...INVOICE_SHARED_DOCS,
  contactEmail: 'E-mail address the invoice is sent to.',
  mailBody: 'Body of the e-mail the invoice is sent with.',
  milestoneId: 'Id of the project milestone the invoice charges for.',
  paymentReference: 'Reference the customer pays with.',
  reminderBody: 'Body of the payment reminder e-mail.',
  salesOrderId: 'Id of the sales order invoiced.',
  overdueNotifiedAt: 'When the owner was told the invoice is overdue.',
  recurringAgreement: 'How the invoice recurs, for RECURRING invoices.',
  creditedInvoiceId:
    'Id of the invoice a CREDIT_NOTE corrects; its number is shown on the PDF and e-invoice.',
  pdf: 'The invoice PDF, rendered by the service (a client cannot set it). Null until it is made: it is made after the create, or a change to what it shows, commits, usually within a second and with no client action. A send or a reminder renders it if it is not made yet.',
} as const;

@Entity({ tableName: 'invoice' })
@Unique({ name: 'invoice_tenant_invoice_number_uq', properties: ['tenantId', 'invoiceNumber'] })
@TenantIndexes(
  'invoice',
  'status',
  'type',
  'invoiceDate',
  'dueDate',
  'clientId',
  'opportunityId',
  'subsidiaryId',
  'currency',
  'total',
  'contactEmail',
  'paymentReference',
  'creditedInvoiceId',
)
@ObjectType({ description: 'A sales invoice to a client. Numbers, due date and amounts are computed.' })
export class Invoice extends Audited {
  @TextColumn({ description: '<year>-<n, 5 digits>, gapless per tenant.' })
  invoiceNumber?: string | null;

  @EnumColumn(() => InvoiceStatus, {
    description:
      'Where the invoice stands; the paid states derive from the transactions, CANCELLED is final.',
  })
  status?: InvoiceStatus | null;

  @EnumColumn(() => InvoiceType, { description: 'What kind of invoice it is.' })
  type?: InvoiceType | null;

  @UuidColumn({ description: 'The customer invoiced.' })
  clientId?: string | null;

  @TextColumn({ description: INVOICE_DOCS.contactEmail })
  contactEmail?: string | null;

  @TextColumn({ description: INVOICE_DOCS.currency })
  currency?: string | null;

  @TextColumn({ description: INVOICE_DOCS.mailBody })
  mailBody?: string | null;

  @UuidColumn({ description: INVOICE_DOCS.milestoneId })
  milestoneId?: string | null;

  @TextColumn({ description: INVOICE_DOCS.note })
  note?: string | null;

  @UuidColumn({ description: 'Id of the opportunity the invoice belongs to.' })
  opportunityId?: string | null;

  @TextColumn({ description: INVOICE_DOCS.paymentReference })
  paymentReference?: string | null;

  @TextColumn({ description: INVOICE_DOCS.reminderBody })
  reminderBody?: string | null;

  @UuidColumn({ description: INVOICE_DOCS.salesOrderId })
  salesOrderId?: string | null;

  @UuidColumn({ description: INVOICE_DOCS.creditedInvoiceId })
  creditedInvoiceId?: string | null;

  @UuidColumn({ description: INVOICE_DOCS.subsidiaryId })
  subsidiaryId?: string | null;

  @DateTimeColumn({ description: 'Date of the invoice; dueDate = invoiceDate + paymentTermDays.' })
  invoiceDate?: Date | null;

  @DateTimeColumn({ description: 'invoiceDate + paymentTermDays.' })
  dueDate?: Date | null;

  @DateTimeColumn({ description: 'Date of the transaction that settled it.' })
  datePaid?: Date | null;

  @DateTimeColumn({ description: INVOICE_DOCS.overdueNotifiedAt })
  overdueNotifiedAt?: Date | null;

  @IntColumn({ description: 'Days to pay (default 30).' })
  paymentTermDays?: number | null;

  @DecimalColumn(14, 2, { description: 'Sum of the transactions.' })
  paid?: number | null;

  @DecimalColumn(14, 2, { description: 'The share of `paid` that is not tax.' })
  paidExcludingTax?: number | null;

  @DecimalColumn(14, 2, { description: 'The same as totalWithTax.' })
  total?: number | null;

  @DecimalColumn(14, 2, {
    description: 'Sum of the rounded row totals; computed, client-sent totals are ignored.',
  })
  totalExcludingTax?: number | null;

  @DecimalColumn(14, 2, { description: 'Sum of the rounded row taxes; computed.' })
  totalTax?: number | null;

  @DecimalColumn(14, 2, { description: 'Total excluding tax plus total tax; computed.' })
  totalWithTax?: number | null;

  @TextListColumn({ description: 'Ids of the mails this invoice was sent in.' })
  sentMails: string[] = [];

  @JsonColumn(() => [FileAsset], { nullable: false, description: INVOICE_DOCS.attachments })
  attachments: FileAsset[] = [];

  @JsonColumn(() => FileAsset, { description: INVOICE_DOCS.pdf })
  pdf?: FileAsset | null;

  @JsonColumn(() => RecurringAgreement, { description: INVOICE_DOCS.recurringAgreement })
  recurringAgreement?: RecurringAgreement | null;

  @JsonColumn(() => [InvoiceReminder], { nullable: false, description: 'Payment reminders sent.' })
  reminders: InvoiceReminder[] = [];

  @JsonColumn(() => [InvoiceRow], {
    nullable: false,
    description: 'The lines of the invoice; the invoice totals are sums of their rounded amounts.',
  })
  rows: InvoiceRow[] = [];

  @JsonColumn(() => [InvoiceTransaction], { nullable: false, description: 'Payments received.' })
  transactions: InvoiceTransaction[] = [];
}
