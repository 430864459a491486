import { Entity, Unique } from '@mikro-orm/core';
import { Extensions, Field, Float, ID, ObjectType, registerEnumType } from 'type-graphql';
import {
  DateTimeColumn,
  DecimalColumn,
  EnumColumn,
  JsonColumn,
  TenantIndexes,
  TextColumn,
  TextListColumn,
  UuidColumn,
} from '../../../entities/columns';
import { DateTimeISOResolver } from '../../../schema/date-time';
import { Audited } from '../../../entities/tenant-scoped';
import { FileAsset } from '../../../entities/shared';
import { INVOICE_ROW_SHARED_DOCS, INVOICE_SHARED_DOCS } from './invoice-docs';

export enum ApInvoiceStatus {
  DRAFT = 'DRAFT',
  APPROVED = 'APPROVED',
  POSTED = 'POSTED',
  CANCELLED = 'CANCELLED',
}
registerEnumType(ApInvoiceStatus, {
  name: 'ApInvoiceStatus',
  description: 'Where a purchase invoice stands in approval and booking.',
  valuesConfig: {
    DRAFT: { description: 'Being entered; may become APPROVED or CANCELLED.' },
    APPROVED: { description: 'Approved for payment; may go back to DRAFT, or become POSTED or CANCELLED.' },
    POSTED: { description: 'Booked in the ledger; may only become CANCELLED.' },
    CANCELLED: { description: 'Cancelled; final.' },
  },
});

export enum ApPaymentStatus {
  UNPAID = 'UNPAID',
  PARTIALLY_PAID = 'PARTIALLY_PAID',
  PAID = 'PAID',
}
registerEnumType(ApPaymentStatus, {
  name: 'ApPaymentStatus',
  description: 'How far the payments settle the invoice (computed).',
  valuesConfig: {
    UNPAID: { description: 'Nothing paid yet.' },
    PARTIALLY_PAID: { description: 'Paid in part.' },
    PAID: { description: 'Paid in full.' },
  },
});

export enum ApClassificationMethod {
  MANUAL = 'MANUAL',
  RULE = 'RULE',
  AI = 'AI',
}
registerEnumType(ApClassificationMethod, {
  name: 'ApClassificationMethod',
  description: 'How the cost classification was made.',
  valuesConfig: {
    MANUAL: { description: 'Classified by a person.' },
    RULE: { description: 'Classified by a rule.' },
    AI: { description: 'Classified automatically by a model.' },
  },
});

export enum ApPaymentMethod {
  BANK_TRANSFER = 'BANK_TRANSFER',
  DIRECT_DEBIT = 'DIRECT_DEBIT',
  CREDIT_CARD = 'CREDIT_CARD',
  CASH = 'CASH',
  OTHER = 'OTHER',
}
registerEnumType(ApPaymentMethod, {
  name: 'ApPaymentMethod',
  description: 'How an AP invoice was paid.',
  valuesConfig: {
    BANK_TRANSFER: { description: 'Bank transfer.' },
    DIRECT_DEBIT: { description: 'Direct debit.' },
    CREDIT_CARD: { description: 'Credit card.' },
    CASH: { description: 'Cash.' },
    OTHER: { description: 'Any other way.' },
  },
});

export enum PurchaseCostType {
  PRODUCT = 'PRODUCT',
  SERVICE = 'SERVICE',
  FREIGHT = 'FREIGHT',
  OTHER = 'OTHER',
}
registerEnumType(PurchaseCostType, {
  name: 'PurchaseCostType',
  description: 'What part of a purchase order an invoice amount pays for.',
  valuesConfig: {
    PRODUCT: { description: 'Goods.' },
    SERVICE: { description: 'Services.' },
    FREIGHT: { description: 'Freight and shipping.' },
    OTHER: { description: 'Any other cost.' },
  },
});

/** What ApInvoiceClassification fields mean, shared with the inputs that set them. */
export const AP_INVOICE_CLASSIFICATION_DOCS = {
  category: 'Cost category.',
  costCenterId: 'Id of the cost centre charged.',
  glAccountId: 'Id of the general-ledger account charged.',
  projectId: 'Id of the project charged.',
  subcategory: 'Cost subcategory.',
} as const;

@ObjectType({ description: 'How a purchase invoice is booked.' })
export class ApInvoiceClassification {
  @Field(() => String, { nullable: true, description: AP_INVOICE_CLASSIFICATION_DOCS.category }) category?:
    string | null;
  @Field(() => String, { nullable: true, description: AP_INVOICE_CLASSIFICATION_DOCS.costCenterId })
  costCenterId?: string | null;
  @Field(() => String, { nullable: true, description: AP_INVOICE_CLASSIFICATION_DOCS.glAccountId })
  glAccountId?: string | null;
  @Field(() => String, { nullable: true, description: AP_INVOICE_CLASSIFICATION_DOCS.projectId }) projectId?:
    string | null;
  @Field(() => String, { nullable: true, description: AP_INVOICE_CLASSIFICATION_DOCS.subcategory })
  subcategory?: string | null;
}

/** What LinkedPurchaseOrder fields mean, shared with the inputs that set them. */
export const LINKED_PURCHASE_ORDER_DOCS = {
  costType: 'What kind of cost it is.',
  purchaseOrderId: 'Id of the purchase order.',
  purchaseOrderNumber: 'Number of the purchase order.',
  purchaseOrderStatus: 'Status of the purchase order when linked.',
  purchaseOrderTotal: 'Total of the purchase order.',
  stockAdjustmentApplied: "True once the order's stock adjustment was applied.",
} as const;

@ObjectType({ description: 'A purchase order this invoice pays (part of).' })
export class LinkedPurchaseOrder {
  @Field(() => Float, { description: 'Part of the invoice allocated to the purchase order.' })
  allocatedAmount!: number;
  @Field(() => PurchaseCostType, { nullable: true, description: LINKED_PURCHASE_ORDER_DOCS.costType })
  costType?: PurchaseCostType | null;
  @Field(() => String, { description: LINKED_PURCHASE_ORDER_DOCS.purchaseOrderId }) purchaseOrderId!: string;
  @Field(() => String, { nullable: true, description: LINKED_PURCHASE_ORDER_DOCS.purchaseOrderNumber })
  purchaseOrderNumber?: string | null;
  @Field(() => String, { nullable: true, description: LINKED_PURCHASE_ORDER_DOCS.purchaseOrderStatus })
  purchaseOrderStatus?: string | null;
  @Field(() => Float, { nullable: true, description: LINKED_PURCHASE_ORDER_DOCS.purchaseOrderTotal })
  purchaseOrderTotal?: number | null;
  @Field(() => Boolean, {
    nullable: true,
    description: LINKED_PURCHASE_ORDER_DOCS.stockAdjustmentApplied,
  })
  stockAdjustmentApplied?: boolean | null;
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'When the link was made; set by the service.',
  })
  created?: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'E-mail of the user who made the link; set by the service.',
  })
  createdBy?: string | null;
}

/** What ApInvoicePayment fields mean, shared with the inputs that set them. */
export const AP_INVOICE_PAYMENT_DOCS = {
  bankTransactionId: 'Id of the bank transaction that paid it.',
  note: 'Note on the payment.',
  reference: 'Payment reference.',
  amount: 'Amount paid; the payments make up `paymentStatus` and `outstanding`.',
  paymentMethod: 'How it was paid.',
} as const;

@ObjectType({ description: 'A payment made on a purchase invoice.' })
export class ApInvoicePayment {
  @Field(() => ID, { description: 'Id of the payment.' }) id!: string;
  @Field(() => String, { nullable: true, description: AP_INVOICE_PAYMENT_DOCS.bankTransactionId })
  bankTransactionId?: string | null;
  @Field(() => String, { nullable: true, description: AP_INVOICE_PAYMENT_DOCS.note }) note?: string | null;
  @Field(() => String, { nullable: true, description: AP_INVOICE_PAYMENT_DOCS.reference }) reference?:
    string | null;
  @Field(() => Float, { description: AP_INVOICE_PAYMENT_DOCS.amount })
  amount!: number;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When it was paid.' }) date?:
    string | null;
  @Field(() => ApPaymentMethod, { nullable: true, description: AP_INVOICE_PAYMENT_DOCS.paymentMethod })
  paymentMethod?: ApPaymentMethod | null;
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'When the payment was recorded; set by the service.',
  })
  created?: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'E-mail of the user who recorded the payment; set by the service.',
  })
  createdBy?: string | null;
}

/** What ApInvoiceRow fields mean, shared with the inputs that set them. */
export const AP_INVOICE_ROW_DOCS = {
  ...INVOICE_ROW_SHARED_DOCS,
  glAccountId: 'Id of the general-ledger account the row is booked on.',
  productId: 'Id of the product bought.',
} as const;

@ObjectType({ description: 'One line of a purchase invoice; its amounts are computed by the service.' })
export class ApInvoiceRow {
  @Field(() => ID, { description: AP_INVOICE_ROW_DOCS.id }) id!: string;
  @Field(() => String, { nullable: true, description: AP_INVOICE_ROW_DOCS.description }) description?:
    string | null;
  @Field(() => String, {
    nullable: true,
    description: AP_INVOICE_ROW_DOCS.glAccountId,
  })
  glAccountId?: string | null;
  @Field(() => String, { nullable: true, description: AP_INVOICE_ROW_DOCS.productId }) productId?:
    string | null;
  @Field(() => Float, { description: 'How many.' }) quantity!: number;
  @Field(() => Float, { description: AP_INVOICE_ROW_DOCS.unitPrice }) unitPrice!: number;
  @Field(() => Float, { description: AP_INVOICE_ROW_DOCS.taxRate }) taxRate!: number;
  @Field(() => Float, { description: 'Tax of the row: total × taxRate / 100, rounded to cents; computed.' })
  taxAmount!: number;
  @Field(() => Float, { description: 'Quantity × unit price, rounded to cents; computed.' }) total!: number;
  @Field(() => Float, { description: AP_INVOICE_ROW_DOCS.totalWithTax }) totalWithTax!: number;
}

/** What ApInvoice fields mean, shared with the inputs that set them. */
export const AP_INVOICE_DOCS = {
  dueNotifiedAt: 'When the user who created the invoice was reminded that it is due.',
  ...INVOICE_SHARED_DOCS,
  referenceNumber: "The supplier's invoice number.",
  supplierName: "The supplier's name when not given.",
  supplierEmail: "The supplier's e-mail when not given.",
  classification: 'Where the cost is booked.',
} as const;

@Entity({ tableName: 'ap_invoice' })
@Unique({
  name: 'ap_invoice_tenant_supplier_id_invoice_number_uq',
  properties: ['tenantId', 'supplierId', 'invoiceNumber'],
})
@TenantIndexes(
  'ap_invoice',
  'invoiceNumber',
  'referenceNumber',
  'supplierName',
  'subsidiaryId',
  'currency',
  'status',
  'paymentStatus',
)
@TenantIndexes('ap_invoice', 'classificationMethod')
@TenantIndexes('ap_invoice', 'invoiceDate', 'dueDate', 'totalAmount', 'outstandingAmount', 'purchaseOrderIds')
@ObjectType({ description: 'A purchase (accounts-payable) invoice received from a supplier.' })
export class ApInvoice extends Audited {
  @TextColumn({ description: "The supplier's own invoice number." })
  invoiceNumber?: string | null;

  @TextColumn({ description: AP_INVOICE_DOCS.referenceNumber })
  referenceNumber?: string | null;

  @TextColumn({ description: AP_INVOICE_DOCS.currency })
  currency?: string | null;

  @TextColumn({ description: AP_INVOICE_DOCS.note })
  note?: string | null;

  @UuidColumn({ description: AP_INVOICE_DOCS.subsidiaryId })
  subsidiaryId?: string | null;

  @UuidColumn({ description: 'Id of the supplier who sent the invoice.' })
  supplierId?: string | null;

  @TextColumn({ description: AP_INVOICE_DOCS.supplierName })
  supplierName?: string | null;

  @TextColumn({ description: AP_INVOICE_DOCS.supplierEmail })
  supplierEmail?: string | null;

  @DateTimeColumn({ description: 'Date of the invoice.' })
  invoiceDate?: Date | null;

  @DateTimeColumn({ description: 'When it must be paid; `daysOverdue` counts from it.' })
  dueDate?: Date | null;

  @DateTimeColumn({ description: AP_INVOICE_DOCS.dueNotifiedAt })
  dueNotifiedAt?: Date | null;

  @DateTimeColumn({ description: 'When the invoice was received.' })
  receivedDate?: Date | null;

  @DateTimeColumn({ description: 'Date of the payment that settled it.' })
  paidDate?: Date | null;

  @DecimalColumn(14, 2, { description: 'Sum of the row totals, without tax.' })
  subtotal?: number | null;

  @DecimalColumn(14, 2, { description: "Sum of the rows' tax; computed." })
  taxAmount?: number | null;

  @DecimalColumn(14, 2, { description: 'subtotal + taxAmount.' })
  totalAmount?: number | null;

  @DecimalColumn(14, 2, { description: 'Sum of the allocated purchase-order amounts.' })
  totalLinkedAmount?: number | null;

  @DecimalColumn(14, 2, { description: 'totalAmount - totalLinkedAmount.' })
  unlinkedAmount?: number | null;

  @DecimalColumn(14, 2, { description: 'totalAmount - paidAmount.' })
  outstandingAmount?: number | null;

  @DecimalColumn(14, 2, { description: 'Sum of the payments.' })
  paidAmount?: number | null;

  @EnumColumn(() => ApInvoiceStatus, {
    description:
      'Where the invoice stands: DRAFT → APPROVED/CANCELLED, APPROVED → DRAFT/POSTED/CANCELLED, POSTED → CANCELLED.',
  })
  status?: ApInvoiceStatus | null;

  @EnumColumn(() => ApPaymentStatus, { description: 'How much is paid; derived from the payments.' })
  paymentStatus?: ApPaymentStatus | null;

  @EnumColumn(() => ApClassificationMethod, { description: 'How the invoice was classified.' })
  classificationMethod?: ApClassificationMethod | null;

  @JsonColumn(() => ApInvoiceClassification, { description: AP_INVOICE_DOCS.classification })
  classification?: ApInvoiceClassification | null;

  @JsonColumn(() => [FileAsset], { nullable: false, description: AP_INVOICE_DOCS.attachments })
  attachments: FileAsset[] = [];

  @JsonColumn(() => FileAsset, { description: AP_INVOICE_DOCS.pdf })
  pdf?: FileAsset | null;

  @JsonColumn(() => [LinkedPurchaseOrder], {
    nullable: false,
    description: 'The purchase orders the invoice pays for.',
  })
  linkedPurchaseOrders: LinkedPurchaseOrder[] = [];

  @JsonColumn(() => [ApInvoicePayment], { nullable: false, description: 'Payments made on the invoice.' })
  payments: ApInvoicePayment[] = [];

  @JsonColumn(() => [ApInvoiceRow], {
    nullable: false,
    description: 'The lines of the invoice; their sums make the invoice totals.',
  })
  rows: ApInvoiceRow[] = [];

  /** The ids of linkedPurchaseOrders as a column, so "invoices of a purchase order" is a query. */
  @TextListColumn({ description: 'Ids of the linked purchase orders (GraphQL only).' })
  @Extensions({ rest: false })
  purchaseOrderIds: string[] = [];
}
