import { Field, Float, InputType } from 'type-graphql';
import { IsEmail, IsISO31661Alpha2, IsOptional, Length, Matches } from 'class-validator';
import { defineGroup } from '../../../family/group';
import { Customer, CUSTOMER_DOCS } from '../entities/customer';
import { Employee, EMPLOYEE_DOCS } from '../entities/employee';
import { Opportunity, OPPORTUNITY_DOCS } from '../entities/opportunity';
import { Product, ProductType, PRODUCT_DOCS } from '../entities/product';
import { StockSite, STOCK_SITE_DOCS } from '../entities/stock-site';
import { Subsidiary, SUBSIDIARY_DOCS } from '../entities/subsidiary';
import { Supplier, SUPPLIER_DOCS } from '../entities/supplier';
import { FileAsset, UnitOfMeasurement } from '../../../entities/shared';

/**
 * Reference records that documented records point at (owners, customers, products, sites...).
 * The specification has no REST operations for them; GraphQL has the full family, so a front end
 * can build every record a REST client reads. Create and update inputs share one shape: on
 * update, absent fields stay as they are.
 */

@InputType('EmployeeInput', { description: 'An employee, as sent.' })
export class EmployeeInput {
  @Field(() => String, { nullable: true, description: EMPLOYEE_DOCS.firstName })
  @IsOptional()
  @Length(0, 100)
  firstName?: string;
  @Field(() => String, { nullable: true, description: EMPLOYEE_DOCS.lastName })
  @IsOptional()
  @Length(0, 100)
  lastName?: string;
  @Field(() => String, { nullable: true, description: EMPLOYEE_DOCS.email })
  @IsOptional()
  @IsEmail()
  email?: string;
  @Field(() => String, { nullable: true, description: EMPLOYEE_DOCS.jobTitle })
  @IsOptional()
  @Length(0, 200)
  jobTitle?: string;
  @Field(() => String, { nullable: true, description: EMPLOYEE_DOCS.department })
  @IsOptional()
  @Length(0, 200)
  department?: string;
  @Field(() => String, { nullable: true, description: EMPLOYEE_DOCS.avatar }) avatar?: string;
  @Field(() => String, { nullable: true, description: EMPLOYEE_DOCS.phone }) phone?: string;
  @Field(() => String, { nullable: true, description: EMPLOYEE_DOCS.userId })
  userId?: string;
}
export const employees = defineGroup({
  entity: Employee,
  name: 'Employee',
  plural: 'Employees',
  resource: 'EMPLOYEES',
  createInput: EmployeeInput,
  updateInput: EmployeeInput,
  searchable: ['firstName', 'lastName', 'email', 'jobTitle', 'department'],
});

@InputType('CustomerInput', { description: 'A customer, as sent.' })
export class CustomerInput {
  @Field(() => String, { nullable: true, description: CUSTOMER_DOCS.name })
  @IsOptional()
  @Length(1, 200)
  name?: string;
  @Field(() => String, { nullable: true, description: CUSTOMER_DOCS.email })
  @IsOptional()
  @IsEmail()
  email?: string;
  @Field(() => String, { nullable: true, description: CUSTOMER_DOCS.phone }) phone?: string;
  @Field(() => String, { nullable: true, description: CUSTOMER_DOCS.street })
  @IsOptional()
  @Length(0, 300)
  street?: string;
  @Field(() => String, { nullable: true, description: CUSTOMER_DOCS.postalCode })
  @IsOptional()
  @Length(0, 20)
  postalCode?: string;
  @Field(() => String, { nullable: true, description: CUSTOMER_DOCS.city })
  @IsOptional()
  @Length(0, 200)
  city?: string;
  @Field(() => String, { nullable: true, description: CUSTOMER_DOCS.country })
  @IsOptional()
  @IsISO31661Alpha2({ message: 'must be an ISO 3166-1 alpha-2 country code, such as NL or DE' })
  country?: string;
  @Field(() => String, { nullable: true, description: CUSTOMER_DOCS.vatNumber })
  @IsOptional()
  @Matches(/^[A-Z]{2}[0-9A-Z+*.]{2,13}$/, {
    message: 'must be a VAT number: a two-letter country prefix and 2 to 13 letters or digits',
  })
  vatNumber?: string;
}
export const customers = defineGroup({
  entity: Customer,
  name: 'Customer',
  plural: 'Customers',
  resource: 'CUSTOMERS',
  createInput: CustomerInput,
  updateInput: CustomerInput,
  searchable: ['name', 'email', 'phone', 'city', 'vatNumber'],
});

@InputType('OpportunityInput', { description: 'An opportunity, as sent.' })
export class OpportunityInput {
  @Field(() => String, { nullable: true, description: OPPORTUNITY_DOCS.name })
  @IsOptional()
  @Length(1, 200)
  name?: string;
  @Field(() => Float, { nullable: true, description: 'Expected value.' }) value?: number;
  @Field(() => String, { nullable: true, description: OPPORTUNITY_DOCS.customerId }) customerId?: string;
}
export const opportunities = defineGroup({
  entity: Opportunity,
  name: 'Opportunity',
  plural: 'Opportunities',
  resource: 'OPPORTUNITIES',
  createInput: OpportunityInput,
  updateInput: OpportunityInput,
  searchable: ['name'],
});

@InputType('SubsidiaryInput', { description: 'A subsidiary, as sent.' })
export class SubsidiaryInput {
  @Field(() => String, { nullable: true, description: SUBSIDIARY_DOCS.name })
  @IsOptional()
  @Length(1, 200)
  name?: string;
  @Field(() => String, { nullable: true, description: SUBSIDIARY_DOCS.color })
  color?: string;
}
export const subsidiaries = defineGroup({
  entity: Subsidiary,
  name: 'Subsidiary',
  plural: 'Subsidiaries',
  resource: 'SUBSIDIARIES',
  createInput: SubsidiaryInput,
  updateInput: SubsidiaryInput,
  searchable: ['name'],
});

@InputType('SupplierInput', { description: 'A supplier, as sent.' })
export class SupplierInput {
  @Field(() => String, { nullable: true, description: SUPPLIER_DOCS.name })
  @IsOptional()
  @Length(1, 200)
  name?: string;
  @Field(() => String, { nullable: true, description: SUPPLIER_DOCS.email })
  @IsOptional()
  @IsEmail()
  email?: string;
}
export const suppliers = defineGroup({
  entity: Supplier,
  name: 'Supplier',
  plural: 'Suppliers',
  resource: 'SUPPLIERS',
  createInput: SupplierInput,
  updateInput: SupplierInput,
  searchable: ['name', 'email'],
});

@InputType('StockSiteInput', { description: 'A stock site, as sent.' })
export class StockSiteInput {
  @Field(() => String, { nullable: true, description: STOCK_SITE_DOCS.name })
  @IsOptional()
  @Length(1, 200)
  name?: string;
  @Field(() => String, { nullable: true, description: STOCK_SITE_DOCS.subsidiaryId })
  subsidiaryId?: string;
}
export const stockSites = defineGroup({
  entity: StockSite,
  name: 'StockSite',
  plural: 'StockSites',
  resource: 'STOCK_SITES',
  createInput: StockSiteInput,
  updateInput: StockSiteInput,
  searchable: ['name'],
  scope: 'subsidiaryId',
});

@InputType('ProductInput', { description: 'A product, as sent.' })
export class ProductInput {
  @Field(() => String, { nullable: true, description: PRODUCT_DOCS.name })
  @IsOptional()
  @Length(1, 300)
  name?: string;
  @Field(() => String, { nullable: true, description: PRODUCT_DOCS.brand }) brand?: string;
  @Field(() => String, { nullable: true, description: PRODUCT_DOCS.category }) category?: string;
  @Field(() => ProductType, { nullable: true, description: PRODUCT_DOCS.productType })
  productType?: ProductType;
  @Field(() => Float, { nullable: true, description: 'Cost price of one base unit.' }) unitPrice?: number;
  @Field(() => Float, { nullable: true, description: 'Sales price of one base unit.' }) salesPrice?: number;
  @Field(() => String, { nullable: true, description: PRODUCT_DOCS.currency }) currency?: string;
  @Field(() => String, { nullable: true, description: PRODUCT_DOCS.imageBlobId }) imageBlobId?: string;
  @Field(() => UnitOfMeasurement, { nullable: true, description: PRODUCT_DOCS.baseUnit })
  baseUnit?: UnitOfMeasurement;
  @Field(() => [UnitOfMeasurement], {
    nullable: true,
    description: PRODUCT_DOCS.unitsOfMeasurement,
  })
  unitsOfMeasurement?: UnitOfMeasurement[];
  @Field(() => [FileAsset], { nullable: true, description: PRODUCT_DOCS.imageAssets })
  imageAssets?: FileAsset[];
}
export const products = defineGroup({
  entity: Product,
  name: 'Product',
  plural: 'Products',
  resource: 'PRODUCTS',
  createInput: ProductInput,
  updateInput: ProductInput,
  searchable: ['name', 'brand', 'category'],
});

export const referenceGroups = [
  employees,
  customers,
  opportunities,
  subsidiaries,
  suppliers,
  stockSites,
  products,
];
