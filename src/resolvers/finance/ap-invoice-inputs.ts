import { Field, Float, ID, InputType } from 'type-graphql';
import { DateTimeISOResolver } from '../../graphql/date-time';
import {
  ArrayMaxSize,
  IsEmail,
  IsOptional,
  IsUUID,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
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
} from '../../entities/finance/ap-invoice';
import { FileAsset } from '../../entities/shared';

const AMOUNT_LIMIT = 1e12;
const MAX_LINES = 1000;

@InputType({ description: 'A line of a purchase invoice; its amounts are computed from these fields.' })
export class ApInvoiceRowInput {
  @Field(() => ID, { nullable: true, description: 'Kept when given, generated otherwise.' })
  @IsOptional()
  @Length(1, 100)
  id?: string;

  @Field(() => String, { nullable: true, description: AP_INVOICE_ROW_DOCS.description })
  @IsOptional()
  @Length(0, 2000)
  description?: string;

  @Field(() => String, {
    nullable: true,
    description: AP_INVOICE_ROW_DOCS.glAccountId,
  })
  glAccountId?: string;
  @Field(() => String, { nullable: true, description: AP_INVOICE_ROW_DOCS.productId }) productId?: string;

  @Field(() => Float, { nullable: true, description: '1 when not given.' })
  @IsOptional()
  @Min(-AMOUNT_LIMIT)
  @Max(AMOUNT_LIMIT)
  quantity?: number;

  @Field(() => Float, { nullable: true, description: '0 when not given.' })
  @IsOptional()
  @Min(-AMOUNT_LIMIT)
  @Max(AMOUNT_LIMIT)
  unitPrice?: number;

  @Field(() => Float, { nullable: true, description: 'Percent, 0 to 100; 21 when not given.' })
  @IsOptional()
  @Min(0)
  @Max(100)
  taxRate?: number;
}

@InputType({ description: 'A payment made on a purchase invoice.' })
export class ApInvoicePaymentInput {
  @Field(() => ID, { nullable: true, description: 'Kept when given, generated otherwise.' })
  @IsOptional()
  @Length(1, 100)
  id?: string;

  @Field(() => String, { nullable: true, description: AP_INVOICE_PAYMENT_DOCS.bankTransactionId })
  bankTransactionId?: string;

  @Field(() => String, { nullable: true, description: AP_INVOICE_PAYMENT_DOCS.note })
  @IsOptional()
  @Length(0, 2000)
  note?: string;

  @Field(() => String, { nullable: true, description: AP_INVOICE_PAYMENT_DOCS.reference }) reference?: string;

  @Field(() => Float, { description: AP_INVOICE_PAYMENT_DOCS.amount })
  @Min(-AMOUNT_LIMIT)
  @Max(AMOUNT_LIMIT)
  amount!: number;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Now when not given.' })
  date?: Date;

  @Field(() => ApPaymentMethod, { nullable: true, description: AP_INVOICE_PAYMENT_DOCS.paymentMethod })
  paymentMethod?: ApPaymentMethod;
}

@InputType({ description: 'A purchase order this invoice pays (part of); one entry per order.' })
export class LinkedPurchaseOrderInput {
  @Field(() => Float, { nullable: true, description: '0 when not given.' })
  @IsOptional()
  @Min(-AMOUNT_LIMIT)
  @Max(AMOUNT_LIMIT)
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

  @Field(() => Float, { nullable: true, description: LINKED_PURCHASE_ORDER_DOCS.purchaseOrderTotal })
  @IsOptional()
  @Min(-AMOUNT_LIMIT)
  @Max(AMOUNT_LIMIT)
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

  @Field(() => String, { nullable: true, description: AP_INVOICE_DOCS.referenceNumber })
  @IsOptional()
  @Length(0, 200)
  referenceNumber?: string;

  @Field(() => String, { nullable: true, description: 'ISO 4217 code; EUR when not given.' })
  @IsOptional()
  @Matches(/^[A-Za-z]{3}$/, { message: 'currency must be a three-letter ISO 4217 code' })
  currency?: string;

  @Field(() => String, { nullable: true, description: AP_INVOICE_DOCS.note })
  @IsOptional()
  @Length(0, 20000)
  note?: string;

  @Field(() => String, { nullable: true, description: 'A subsidiary the caller has access to.' })
  @IsOptional()
  @IsUUID()
  subsidiaryId?: string;

  @Field(() => String, { nullable: true, description: 'A supplier of the tenant.' })
  @IsOptional()
  @IsUUID()
  supplierId?: string;

  @Field(() => String, { nullable: true, description: AP_INVOICE_DOCS.supplierName })
  @IsOptional()
  @Length(0, 300)
  supplierName?: string;

  @Field(() => String, { nullable: true, description: AP_INVOICE_DOCS.supplierEmail })
  @IsOptional()
  @IsEmail()
  supplierEmail?: string;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Now when not given.' })
  invoiceDate?: Date;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'invoiceDate + 30 days when not given.' })
  dueDate?: Date;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When registered, if not given.' })
  receivedDate?: Date;

  @Field(() => ApInvoiceStatus, { nullable: true, description: 'DRAFT when not given.' })
  status?: ApInvoiceStatus;

  @Field(() => ApClassificationMethod, { nullable: true, description: 'MANUAL when not given.' })
  classificationMethod?: ApClassificationMethod;

  @Field(() => ApInvoiceClassificationInput, { nullable: true, description: AP_INVOICE_DOCS.classification })
  classification?: ApInvoiceClassificationInput;

  @Field(() => [FileAsset], {
    nullable: true,
    description: 'Files attached to the invoice; replaces the list.',
  })
  @IsOptional()
  @ArrayMaxSize(1000)
  attachments?: FileAsset[];

  @Field(() => FileAsset, { nullable: true, description: AP_INVOICE_DOCS.pdf })
  pdf?: FileAsset;

  @Field(() => [LinkedPurchaseOrderInput], {
    nullable: true,
    description: 'The purchase orders the invoice pays for; replaces the list.',
  })
  @IsOptional()
  @ArrayMaxSize(MAX_LINES)
  @ValidateNested({ each: true })
  linkedPurchaseOrders?: LinkedPurchaseOrderInput[];

  @Field(() => [ApInvoicePaymentInput], {
    nullable: true,
    description: 'Payments made on the invoice; replaces the list.',
  })
  @IsOptional()
  @ArrayMaxSize(MAX_LINES)
  @ValidateNested({ each: true })
  payments?: ApInvoicePaymentInput[];

  @Field(() => [ApInvoiceRowInput], {
    description:
      'The lines of the invoice; replaces the list. Totals are computed, client-sent totals ignored.',
    nullable: true,
  })
  @IsOptional()
  @ArrayMaxSize(MAX_LINES)
  @ValidateNested({ each: true })
  rows?: ApInvoiceRowInput[];
}
