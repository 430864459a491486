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
  ApInvoice,
  ApInvoiceStatus,
  ApPaymentMethod,
  PurchaseCostType,
} from '../../entities/finance/ap-invoice';
import { FileAsset } from '../../entities/shared';
import { defineGroup } from '../../family/group';
import { prepareApInvoice } from './ap-invoice-rules';
import { AUDIT_FIELDS } from '../../family/fields';

const AMOUNT_LIMIT = 1e12;
const MAX_LINES = 1000;

@InputType({ description: 'A line of a purchase invoice; its amounts are computed from these fields.' })
export class ApInvoiceRowInput {
  @Field(() => ID, { nullable: true, description: 'Kept when given, generated otherwise.' })
  @IsOptional()
  @Length(1, 100)
  id?: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(0, 2000)
  description?: string;

  @Field(() => String, { nullable: true }) glAccountId?: string;
  @Field(() => String, { nullable: true }) productId?: string;

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

  @Field(() => String, { nullable: true }) bankTransactionId?: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(0, 2000)
  note?: string;

  @Field(() => String, { nullable: true }) reference?: string;

  @Field(() => Float)
  @Min(-AMOUNT_LIMIT)
  @Max(AMOUNT_LIMIT)
  amount!: number;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Now when not given.' })
  date?: Date;

  @Field(() => ApPaymentMethod, { nullable: true }) paymentMethod?: ApPaymentMethod;
}

@InputType({ description: 'A purchase order this invoice pays (part of); one entry per order.' })
export class LinkedPurchaseOrderInput {
  @Field(() => Float, { nullable: true, description: '0 when not given.' })
  @IsOptional()
  @Min(-AMOUNT_LIMIT)
  @Max(AMOUNT_LIMIT)
  allocatedAmount?: number;

  @Field(() => PurchaseCostType, { nullable: true }) costType?: PurchaseCostType;

  @Field(() => String)
  @Length(1, 100)
  purchaseOrderId!: string;

  @Field(() => String, { nullable: true }) purchaseOrderNumber?: string;
  @Field(() => String, { nullable: true }) purchaseOrderStatus?: string;

  @Field(() => Float, { nullable: true })
  @IsOptional()
  @Min(-AMOUNT_LIMIT)
  @Max(AMOUNT_LIMIT)
  purchaseOrderTotal?: number;

  @Field(() => Boolean, { nullable: true }) stockAdjustmentApplied?: boolean;
}

@InputType({ description: 'How a purchase invoice is booked.' })
export class ApInvoiceClassificationInput {
  @Field(() => String, { nullable: true }) category?: string;
  @Field(() => String, { nullable: true }) costCenterId?: string;
  @Field(() => String, { nullable: true }) glAccountId?: string;
  @Field(() => String, { nullable: true }) projectId?: string;
  @Field(() => String, { nullable: true }) subcategory?: string;
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

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(0, 200)
  referenceNumber?: string;

  @Field(() => String, { nullable: true, description: 'ISO 4217 code; EUR when not given.' })
  @IsOptional()
  @Matches(/^[A-Za-z]{3}$/, { message: 'currency must be a three-letter ISO 4217 code' })
  currency?: string;

  @Field(() => String, { nullable: true })
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

  @Field(() => String, { nullable: true, description: "The supplier's name when not given." })
  @IsOptional()
  @Length(0, 300)
  supplierName?: string;

  @Field(() => String, { nullable: true, description: "The supplier's e-mail when not given." })
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

  @Field(() => ApInvoiceClassificationInput, { nullable: true })
  classification?: ApInvoiceClassificationInput;

  @Field(() => [FileAsset], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(1000)
  attachments?: FileAsset[];

  @Field(() => FileAsset, { nullable: true })
  pdf?: FileAsset;

  @Field(() => [LinkedPurchaseOrderInput], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(MAX_LINES)
  @ValidateNested({ each: true })
  linkedPurchaseOrders?: LinkedPurchaseOrderInput[];

  @Field(() => [ApInvoicePaymentInput], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(MAX_LINES)
  @ValidateNested({ each: true })
  payments?: ApInvoicePaymentInput[];

  @Field(() => [ApInvoiceRowInput], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(MAX_LINES)
  @ValidateNested({ each: true })
  rows?: ApInvoiceRowInput[];
}

export const apInvoices = defineGroup({
  entity: ApInvoice,
  name: 'ApInvoice',
  plural: 'ApInvoices',
  resource: 'AP_INVOICES',
  createInput: ApInvoiceInput,
  updateInput: ApInvoiceInput,
  scope: 'subsidiaryId',
  searchable: ['invoiceNumber', 'referenceNumber', 'supplierName'],
  filterable: [
    ...AUDIT_FIELDS,
    'invoiceNumber',
    'referenceNumber',
    'supplierId',
    'supplierName',
    'subsidiaryId',
    'currency',
    'status',
    'paymentStatus',
    'classificationMethod',
    'invoiceDate',
    'dueDate',
    'totalAmount',
    'outstandingAmount',
    'purchaseOrderIds',
  ],
  beforeSave: prepareApInvoice,
});
