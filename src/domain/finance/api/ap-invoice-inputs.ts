import { Field, InputType } from 'type-graphql';
import { IsEmail, IsOptional, IsUUID, Length } from 'class-validator';
import { DateTimeISOResolver } from '../../../schema/date-time';
import {
  ApClassificationMethod,
  ApInvoiceStatus,
  ApPaymentMethod,
  PurchaseCostType,
  AP_INVOICE_DOCS,
  AP_INVOICE_CLASSIFICATION_DOCS,
  LINKED_PURCHASE_ORDER_DOCS,
  AP_INVOICE_PAYMENT_DOCS,
  AP_INVOICE_ROW_DOCS,
} from '../entities/ap-invoice';
import { FileAsset } from '../../../entities/shared';
import * as InvoiceField from './input-fields';

@InputType({ description: 'A line of a purchase invoice; its amounts are computed from these fields.' })
export class ApInvoiceRowInput {
  @InvoiceField.LineId()
  id?: string;

  @InvoiceField.Text(2000, AP_INVOICE_ROW_DOCS.description)
  description?: string;

  @Field(() => String, {
    nullable: true,
    description: AP_INVOICE_ROW_DOCS.glAccountId,
  })
  glAccountId?: string;
  @Field(() => String, { nullable: true, description: AP_INVOICE_ROW_DOCS.productId }) productId?: string;

  @InvoiceField.Amount('1 when not given.')
  quantity?: number;

  @InvoiceField.Amount('0 when not given.')
  unitPrice?: number;

  @InvoiceField.TaxRate()
  taxRate?: number;
}

@InputType({ description: 'A payment made on a purchase invoice.' })
export class ApInvoicePaymentInput {
  @InvoiceField.LineId()
  id?: string;

  @Field(() => String, { nullable: true, description: AP_INVOICE_PAYMENT_DOCS.bankTransactionId })
  bankTransactionId?: string;

  @InvoiceField.Text(2000, AP_INVOICE_PAYMENT_DOCS.note)
  note?: string;

  @Field(() => String, { nullable: true, description: AP_INVOICE_PAYMENT_DOCS.reference }) reference?: string;

  @InvoiceField.RequiredAmount(AP_INVOICE_PAYMENT_DOCS.amount)
  amount!: number;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Now when not given.' })
  date?: Date;

  @Field(() => ApPaymentMethod, { nullable: true, description: AP_INVOICE_PAYMENT_DOCS.paymentMethod })
  paymentMethod?: ApPaymentMethod;
}

@InputType({ description: 'A purchase order this invoice pays (part of); one entry per order.' })
export class LinkedPurchaseOrderInput {
  @InvoiceField.Amount('0 when not given.')
  allocatedAmount?: number;

  @Field(() => PurchaseCostType, { nullable: true, description: LINKED_PURCHASE_ORDER_DOCS.costType })
  costType?: PurchaseCostType;

  @Field(() => String, { description: LINKED_PURCHASE_ORDER_DOCS.purchaseOrderId })
  @Length(1, 100)
  purchaseOrderId!: string;

  @Field(() => String, { nullable: true, description: LINKED_PURCHASE_ORDER_DOCS.purchaseOrderNumber })
  purchaseOrderNumber?: string;
  @Field(() => String, { nullable: true, description: LINKED_PURCHASE_ORDER_DOCS.purchaseOrderStatus })
  purchaseOrderStatus?: string;

  @InvoiceField.Amount(LINKED_PURCHASE_ORDER_DOCS.purchaseOrderTotal)
  purchaseOrderTotal?: number;

  @Field(() => Boolean, {
    nullable: true,
    description: LINKED_PURCHASE_ORDER_DOCS.stockAdjustmentApplied,
  })
  stockAdjustmentApplied?: boolean;
}

@InputType({ description: 'How a purchase invoice is booked.' })
export class ApInvoiceClassificationInput {
  @Field(() => String, { nullable: true, description: AP_INVOICE_CLASSIFICATION_DOCS.category })
  category?: string;
  @Field(() => String, { nullable: true, description: AP_INVOICE_CLASSIFICATION_DOCS.costCenterId })
  costCenterId?: string;
  @Field(() => String, { nullable: true, description: AP_INVOICE_CLASSIFICATION_DOCS.glAccountId })
  glAccountId?: string;
  @Field(() => String, { nullable: true, description: AP_INVOICE_CLASSIFICATION_DOCS.projectId })
  projectId?: string;
  @Field(() => String, { nullable: true, description: AP_INVOICE_CLASSIFICATION_DOCS.subcategory })
  subcategory?: string;
}

/**
 * A purchase invoice as a client writes it, for create and update alike (on update, absent fields
 * stay as they are). Amounts, paymentStatus and paidDate are computed, so they are not inputs; a
 * REST body that carries them has them dropped.
 */
@InputType({ description: 'A purchase invoice to register, or the changes to make to one.' })
export class ApInvoiceInput {
  @Field(() => String, { nullable: true, description: "The supplier's number; unique per supplier." })
  @IsOptional()
  @Length(1, 100)
  invoiceNumber?: string;

  @InvoiceField.Text(200, AP_INVOICE_DOCS.referenceNumber)
  referenceNumber?: string;

  @InvoiceField.Currency()
  currency?: string;

  @InvoiceField.Text(20000, AP_INVOICE_DOCS.note)
  note?: string;

  @InvoiceField.SubsidiaryId()
  subsidiaryId?: string;

  @Field(() => String, { nullable: true, description: 'A supplier of the tenant.' })
  @IsOptional()
  @IsUUID()
  supplierId?: string;

  @InvoiceField.Text(300, AP_INVOICE_DOCS.supplierName)
  supplierName?: string;

  @Field(() => String, { nullable: true, description: AP_INVOICE_DOCS.supplierEmail })
  @IsOptional()
  @IsEmail()
  supplierEmail?: string;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Now when not given.' })
  invoiceDate?: Date;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'invoiceDate + 30 days when not given.' })
  dueDate?: Date;

  @Field(() => DateTimeISOResolver, { nullable: true, description: AP_INVOICE_DOCS.dueNotifiedAt })
  dueNotifiedAt?: Date;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When registered, if not given.' })
  receivedDate?: Date;

  @Field(() => ApInvoiceStatus, { nullable: true, description: 'DRAFT when not given.' })
  status?: ApInvoiceStatus;

  @Field(() => ApClassificationMethod, { nullable: true, description: 'MANUAL when not given.' })
  classificationMethod?: ApClassificationMethod;

  @Field(() => ApInvoiceClassificationInput, { nullable: true, description: AP_INVOICE_DOCS.classification })
  classification?: ApInvoiceClassificationInput;

  @InvoiceField.Attachments()
  attachments?: FileAsset[];

  @Field(() => FileAsset, { nullable: true, description: AP_INVOICE_DOCS.pdf })
  pdf?: FileAsset;

  @InvoiceField.Lines(
    () => [LinkedPurchaseOrderInput],
    'The purchase orders the invoice pays for; replaces the list.',
  )
  linkedPurchaseOrders?: LinkedPurchaseOrderInput[];

  @InvoiceField.Lines(() => [ApInvoicePaymentInput], 'Payments made on the invoice; replaces the list.')
  payments?: ApInvoicePaymentInput[];

  @InvoiceField.Lines(
    () => [ApInvoiceRowInput],
    'The lines of the invoice; replaces the list. Totals are computed, client-sent totals ignored.',
  )
  rows?: ApInvoiceRowInput[];
}
