import { Entity, Enum, Index, Property, Unique } from '@mikro-orm/core';
import { DecimalColumn } from '../columns';
import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from '../../graphql/date-time';
import { Audited } from '../tenant-scoped';
import { FileAsset } from '../shared';

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
});

export enum InvoiceType {
  MANUAL = 'MANUAL',
  RECURRING = 'RECURRING',
  CREDIT_NOTE = 'CREDIT_NOTE',
  DEPOSIT = 'DEPOSIT',
}
registerEnumType(InvoiceType, { name: 'InvoiceType', description: 'What kind of sales invoice it is.' });

export enum InvoiceQuantityType {
  AMOUNT = 'AMOUNT',
  HOURS = 'HOURS',
  DAYS = 'DAYS',
  PERCENTAGE = 'PERCENTAGE',
}
registerEnumType(InvoiceQuantityType, {
  name: 'InvoiceQuantityType',
  description: 'The unit of a row quantity; PERCENTAGE means a percentage of the unit price.',
});

export enum InvoiceRowType {
  ITEM = 'ITEM',
  TEXT = 'TEXT',
  DISCOUNT = 'DISCOUNT',
}
registerEnumType(InvoiceRowType, {
  name: 'InvoiceRowType',
  description: 'ITEM charges, TEXT only describes (no amount), DISCOUNT reduces the total.',
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
registerEnumType(InvoicePaymentMethod, { name: 'InvoicePaymentMethod' });

@ObjectType({ description: 'One line of a sales invoice; its amounts are computed by the service.' })
export class InvoiceRow {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true }) productId?: string | null;
  @Field(() => Float, { nullable: true }) quantity?: number | null;
  @Field(() => InvoiceQuantityType, { nullable: true }) quantityType?: InvoiceQuantityType | null;
  @Field(() => Float, { nullable: true }) unitPrice?: number | null;
  @Field(() => Float, { nullable: true, description: 'Percent; 21 when the row names none.' })
  taxRate?: number | null;
  @Field(() => Float) taxAmount!: number;
  @Field(() => Float) total!: number;
  @Field(() => Float) totalWithTax!: number;
  @Field(() => InvoiceRowType, { nullable: true }) type?: InvoiceRowType | null;
}

@ObjectType({ description: 'A payment (or, negative, a refund) received for a sales invoice.' })
export class InvoiceTransaction {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) accountId?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => Float) amount!: number;
  @Field(() => DateTimeISOResolver, { nullable: true }) date?: string | null;
  @Field(() => InvoicePaymentMethod, { nullable: true }) paymentMethod?: InvoicePaymentMethod | null;
  @Field(() => String, { nullable: true }) tenantId?: string | null;
  @Field(() => DateTimeISOResolver, { nullable: true }) created?: string | null;
  @Field(() => String, { nullable: true }) createdBy?: string | null;
  @Field(() => DateTimeISOResolver, { nullable: true }) updated?: string | null;
  @Field(() => String, { nullable: true }) updatedBy?: string | null;
}

@ObjectType({ description: 'How a recurring invoice repeats.' })
export class RecurringAgreement {
  @Field(() => Boolean, { nullable: true }) autoSend?: boolean | null;
  @Field(() => DateTimeISOResolver, { nullable: true }) endDate?: string | null;
  @Field(() => DateTimeISOResolver, { nullable: true }) nextInvoiceDate?: string | null;
  @Field(() => Int, { nullable: true }) intervalDays?: number | null;
  @Field(() => Int, { nullable: true }) intervalMonths?: number | null;
}

@ObjectType({ description: 'A payment reminder that was sent.' })
export class InvoiceReminder {
  @Field(() => String, { nullable: true }) createdBy?: string | null;
  @Field(() => DateTimeISOResolver, { nullable: true }) sentOn?: string | null;
}

@Entity({ tableName: 'invoice' })
@Unique({ name: 'invoice_tenant_invoice_number_uq', properties: ['tenantId', 'invoiceNumber'] })
@Index({ name: 'invoice_tenant_status_idx', properties: ['tenantId', 'status'] })
@Index({ name: 'invoice_tenant_type_idx', properties: ['tenantId', 'type'] })
@Index({ name: 'invoice_tenant_invoice_date_idx', properties: ['tenantId', 'invoiceDate'] })
@Index({ name: 'invoice_tenant_due_date_idx', properties: ['tenantId', 'dueDate'] })
@Index({ name: 'invoice_tenant_client_id_idx', properties: ['tenantId', 'clientId'] })
@Index({ name: 'invoice_tenant_opportunity_id_idx', properties: ['tenantId', 'opportunityId'] })
@Index({ name: 'invoice_tenant_subsidiary_id_idx', properties: ['tenantId', 'subsidiaryId'] })
@Index({ name: 'invoice_tenant_currency_idx', properties: ['tenantId', 'currency'] })
@Index({ name: 'invoice_tenant_total_idx', properties: ['tenantId', 'total'] })
@Index({ name: 'invoice_tenant_contact_email_idx', properties: ['tenantId', 'contactEmail'] })
@Index({ name: 'invoice_tenant_payment_reference_idx', properties: ['tenantId', 'paymentReference'] })
@ObjectType({ description: 'A sales invoice to a client. Numbers, due date and amounts are computed.' })
export class Invoice extends Audited {
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: '<year>-<n, 5 digits>, gapless per tenant.' })
  invoiceNumber?: string;

  @Enum({ items: () => InvoiceStatus, nullable: true })
  @Field(() => InvoiceStatus, { nullable: true })
  status?: InvoiceStatus;

  @Enum({ items: () => InvoiceType, nullable: true })
  @Field(() => InvoiceType, { nullable: true })
  type?: InvoiceType;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true, description: 'The customer invoiced.' })
  clientId?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  contactEmail?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'ISO 4217 code, EUR when not given.' })
  currency?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  mailBody?: string;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true })
  milestoneId?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  note?: string;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true })
  opportunityId?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  paymentReference?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  reminderBody?: string;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true })
  salesOrderId?: string;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true })
  subsidiaryId?: string;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true })
  invoiceDate?: Date;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'invoiceDate + paymentTermDays.' })
  dueDate?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'Date of the transaction that settled it.',
  })
  datePaid?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true })
  overdueNotifiedAt?: Date;

  @Property({ type: 'integer', nullable: true })
  @Field(() => Int, { nullable: true })
  paymentTermDays?: number;

  @DecimalColumn(14, 2, { description: 'Sum of the transactions.' })
  paid?: number;

  @DecimalColumn(14, 2, { description: 'The share of `paid` that is not tax.' })
  paidExcludingTax?: number;

  @DecimalColumn(14, 2, { description: 'The same as totalWithTax.' })
  total?: number;

  @DecimalColumn(14, 2)
  totalExcludingTax?: number;

  @DecimalColumn(14, 2)
  totalTax?: number;

  @DecimalColumn(14, 2)
  totalWithTax?: number;

  @Property({ type: 'text[]' })
  @Field(() => [String], { description: 'Ids of the mails this invoice was sent in.' })
  sentMails: string[] = [];

  @Property({ type: 'json' })
  @Field(() => [FileAsset])
  attachments: FileAsset[] = [];

  @Property({ type: 'json', nullable: true })
  @Field(() => FileAsset, { nullable: true })
  pdf?: FileAsset;

  @Property({ type: 'json', nullable: true })
  @Field(() => RecurringAgreement, { nullable: true })
  recurringAgreement?: RecurringAgreement | null;

  @Property({ type: 'json' })
  @Field(() => [InvoiceReminder])
  reminders: InvoiceReminder[] = [];

  @Property({ type: 'json' })
  @Field(() => [InvoiceRow])
  rows: InvoiceRow[] = [];

  @Property({ type: 'json' })
  @Field(() => [InvoiceTransaction])
  transactions: InvoiceTransaction[] = [];
}
