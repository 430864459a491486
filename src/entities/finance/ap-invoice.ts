import { Entity, Enum, Index, Property, Unique } from '@mikro-orm/core';
import { DecimalColumn } from '../columns';
import { Extensions, Field, Float, ID, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from '../../graphql/date-time';
import { Audited } from '../tenant-scoped';
import { FileAsset } from '../shared';

export enum ApInvoiceStatus {
  DRAFT = 'DRAFT',
  APPROVED = 'APPROVED',
  POSTED = 'POSTED',
  CANCELLED = 'CANCELLED',
}
registerEnumType(ApInvoiceStatus, {
  name: 'ApInvoiceStatus',
  description: 'Where a purchase invoice stands in approval and booking.',
});

export enum ApPaymentStatus {
  UNPAID = 'UNPAID',
  PARTIALLY_PAID = 'PARTIALLY_PAID',
  PAID = 'PAID',
}
registerEnumType(ApPaymentStatus, {
  name: 'ApPaymentStatus',
  description: 'How far the payments settle the invoice (computed).',
});

export enum ApClassificationMethod {
  MANUAL = 'MANUAL',
  RULE = 'RULE',
  AI = 'AI',
}
registerEnumType(ApClassificationMethod, {
  name: 'ApClassificationMethod',
  description: 'How the cost classification was made.',
});

export enum ApPaymentMethod {
  BANK_TRANSFER = 'BANK_TRANSFER',
  DIRECT_DEBIT = 'DIRECT_DEBIT',
  CREDIT_CARD = 'CREDIT_CARD',
  CASH = 'CASH',
  OTHER = 'OTHER',
}
registerEnumType(ApPaymentMethod, { name: 'ApPaymentMethod' });

export enum PurchaseCostType {
  PRODUCT = 'PRODUCT',
  SERVICE = 'SERVICE',
  FREIGHT = 'FREIGHT',
  OTHER = 'OTHER',
}
registerEnumType(PurchaseCostType, {
  name: 'PurchaseCostType',
  description: 'What part of a purchase order an invoice amount pays for.',
});

@ObjectType({ description: 'How a purchase invoice is booked.' })
export class ApInvoiceClassification {
  @Field(() => String, { nullable: true }) category?: string | null;
  @Field(() => String, { nullable: true }) costCenterId?: string | null;
  @Field(() => String, { nullable: true }) glAccountId?: string | null;
  @Field(() => String, { nullable: true }) projectId?: string | null;
  @Field(() => String, { nullable: true }) subcategory?: string | null;
}

@ObjectType({ description: 'A purchase order this invoice pays (part of).' })
export class LinkedPurchaseOrder {
  @Field(() => Float) allocatedAmount!: number;
  @Field(() => PurchaseCostType, { nullable: true }) costType?: PurchaseCostType | null;
  @Field(() => String) purchaseOrderId!: string;
  @Field(() => String, { nullable: true }) purchaseOrderNumber?: string | null;
  @Field(() => String, { nullable: true }) purchaseOrderStatus?: string | null;
  @Field(() => Float, { nullable: true }) purchaseOrderTotal?: number | null;
  @Field(() => Boolean, { nullable: true }) stockAdjustmentApplied?: boolean | null;
  @Field(() => DateTimeISOResolver, { nullable: true }) created?: string | null;
  @Field(() => String, { nullable: true }) createdBy?: string | null;
}

@ObjectType({ description: 'A payment made on a purchase invoice.' })
export class ApInvoicePayment {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) bankTransactionId?: string | null;
  @Field(() => String, { nullable: true }) note?: string | null;
  @Field(() => String, { nullable: true }) reference?: string | null;
  @Field(() => Float) amount!: number;
  @Field(() => DateTimeISOResolver, { nullable: true }) date?: string | null;
  @Field(() => ApPaymentMethod, { nullable: true }) paymentMethod?: ApPaymentMethod | null;
  @Field(() => DateTimeISOResolver, { nullable: true }) created?: string | null;
  @Field(() => String, { nullable: true }) createdBy?: string | null;
}

@ObjectType({ description: 'One line of a purchase invoice; its amounts are computed by the service.' })
export class ApInvoiceRow {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true }) glAccountId?: string | null;
  @Field(() => String, { nullable: true }) productId?: string | null;
  @Field(() => Float) quantity!: number;
  @Field(() => Float) unitPrice!: number;
  @Field(() => Float, { description: 'Percent; 21 when the row names none.' }) taxRate!: number;
  @Field(() => Float) taxAmount!: number;
  @Field(() => Float) total!: number;
  @Field(() => Float) totalWithTax!: number;
}

@Entity({ tableName: 'ap_invoice' })
@Unique({
  name: 'ap_invoice_tenant_supplier_id_invoice_number_uq',
  properties: ['tenantId', 'supplierId', 'invoiceNumber'],
})
@Index({ name: 'ap_invoice_tenant_invoice_number_idx', properties: ['tenantId', 'invoiceNumber'] })
@Index({ name: 'ap_invoice_tenant_reference_number_idx', properties: ['tenantId', 'referenceNumber'] })
@Index({ name: 'ap_invoice_tenant_supplier_name_idx', properties: ['tenantId', 'supplierName'] })
@Index({ name: 'ap_invoice_tenant_subsidiary_id_idx', properties: ['tenantId', 'subsidiaryId'] })
@Index({ name: 'ap_invoice_tenant_currency_idx', properties: ['tenantId', 'currency'] })
@Index({ name: 'ap_invoice_tenant_status_idx', properties: ['tenantId', 'status'] })
@Index({ name: 'ap_invoice_tenant_payment_status_idx', properties: ['tenantId', 'paymentStatus'] })
@Index({
  name: 'ap_invoice_tenant_classification_method_idx',
  properties: ['tenantId', 'classificationMethod'],
})
@Index({ name: 'ap_invoice_tenant_invoice_date_idx', properties: ['tenantId', 'invoiceDate'] })
@Index({ name: 'ap_invoice_tenant_due_date_idx', properties: ['tenantId', 'dueDate'] })
@Index({ name: 'ap_invoice_tenant_total_amount_idx', properties: ['tenantId', 'totalAmount'] })
@Index({ name: 'ap_invoice_tenant_outstanding_amount_idx', properties: ['tenantId', 'outstandingAmount'] })
@Index({ name: 'ap_invoice_tenant_purchase_order_ids_idx', properties: ['tenantId', 'purchaseOrderIds'] })
@ObjectType({ description: 'A purchase (accounts-payable) invoice received from a supplier.' })
export class ApInvoice extends Audited {
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "The supplier's own invoice number." })
  invoiceNumber?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  referenceNumber?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'ISO 4217 code, EUR when not given.' })
  currency?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  note?: string;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true })
  subsidiaryId?: string;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => String, { nullable: true })
  supplierId?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "The supplier's name when not given." })
  supplierName?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: "The supplier's e-mail when not given." })
  supplierEmail?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true })
  invoiceDate?: Date;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true })
  dueDate?: Date;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true })
  receivedDate?: Date;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'Date of the payment that settled it.',
  })
  paidDate?: Date | null;

  @DecimalColumn(14, 2, { description: 'Sum of the row totals, without tax.' })
  subtotal?: number;

  @DecimalColumn(14, 2)
  taxAmount?: number;

  @DecimalColumn(14, 2, { description: 'subtotal + taxAmount.' })
  totalAmount?: number;

  @DecimalColumn(14, 2, { description: 'Sum of the allocated purchase-order amounts.' })
  totalLinkedAmount?: number;

  @DecimalColumn(14, 2, { description: 'totalAmount - totalLinkedAmount.' })
  unlinkedAmount?: number;

  @DecimalColumn(14, 2, { description: 'totalAmount - paidAmount.' })
  outstandingAmount?: number;

  @DecimalColumn(14, 2, { description: 'Sum of the payments.' })
  paidAmount?: number;

  @Enum({ items: () => ApInvoiceStatus, nullable: true })
  @Field(() => ApInvoiceStatus, { nullable: true })
  status?: ApInvoiceStatus;

  @Enum({ items: () => ApPaymentStatus, nullable: true })
  @Field(() => ApPaymentStatus, { nullable: true })
  paymentStatus?: ApPaymentStatus;

  @Enum({ items: () => ApClassificationMethod, nullable: true })
  @Field(() => ApClassificationMethod, { nullable: true })
  classificationMethod?: ApClassificationMethod;

  @Property({ type: 'json', nullable: true })
  @Field(() => ApInvoiceClassification, { nullable: true })
  classification?: ApInvoiceClassification;

  @Property({ type: 'json' })
  @Field(() => [FileAsset])
  attachments: FileAsset[] = [];

  @Property({ type: 'json', nullable: true })
  @Field(() => FileAsset, { nullable: true })
  pdf?: FileAsset;

  @Property({ type: 'json' })
  @Field(() => [LinkedPurchaseOrder])
  linkedPurchaseOrders: LinkedPurchaseOrder[] = [];

  @Property({ type: 'json' })
  @Field(() => [ApInvoicePayment])
  payments: ApInvoicePayment[] = [];

  @Property({ type: 'json' })
  @Field(() => [ApInvoiceRow])
  rows: ApInvoiceRow[] = [];

  /** The ids of linkedPurchaseOrders as a column, so "invoices of a purchase order" is a query. */
  @Property({ type: 'text[]' })
  @Field(() => [String], { description: 'Ids of the linked purchase orders (GraphQL only).' })
  @Extensions({ rest: false })
  purchaseOrderIds: string[] = [];
}
