import { Field, Float, InputType } from 'type-graphql';
import { IsEmail, IsOptional, Length } from 'class-validator';
import { defineGroup } from '../../family/group';
import { Customer } from '../../entities/reference/customer';
import { Employee } from '../../entities/reference/employee';
import { Opportunity } from '../../entities/reference/opportunity';
import { Product, ProductType } from '../../entities/reference/product';
import { StockSite } from '../../entities/reference/stock-site';
import { Subsidiary } from '../../entities/reference/subsidiary';
import { Supplier } from '../../entities/reference/supplier';
import { FileAsset, UnitOfMeasurement } from '../../entities/shared';

/**
 * Reference records that documented records point at (owners, customers, products, sites...).
 * The specification has no REST operations for them; GraphQL has the full family, so a front end
 * can build every record a REST client reads. Create and update inputs share one shape: on
 * update, absent fields stay as they are.
 */

@InputType('EmployeeInput')
export class EmployeeInput {
  @Field(() => String, { nullable: true }) @IsOptional() @Length(0, 100) firstName?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @Length(0, 100) lastName?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsEmail() email?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @Length(0, 200) jobTitle?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @Length(0, 200) department?: string;
  @Field(() => String, { nullable: true }) avatar?: string;
  @Field(() => String, { nullable: true }) phone?: string;
  @Field(() => String, { nullable: true }) userId?: string;
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

@InputType('CustomerInput')
export class CustomerInput {
  @Field(() => String, { nullable: true }) @IsOptional() @Length(1, 200) name?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsEmail() email?: string;
  @Field(() => String, { nullable: true }) phone?: string;
}
export const customers = defineGroup({
  entity: Customer,
  name: 'Customer',
  plural: 'Customers',
  resource: 'CUSTOMERS',
  createInput: CustomerInput,
  updateInput: CustomerInput,
  searchable: ['name', 'email', 'phone'],
});

@InputType('OpportunityInput')
export class OpportunityInput {
  @Field(() => String, { nullable: true }) @IsOptional() @Length(1, 200) name?: string;
  @Field(() => Float, { nullable: true }) value?: number;
  @Field(() => String, { nullable: true }) customerId?: string;
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

@InputType('SubsidiaryInput')
export class SubsidiaryInput {
  @Field(() => String, { nullable: true }) @IsOptional() @Length(1, 200) name?: string;
  @Field(() => String, { nullable: true }) color?: string;
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

@InputType('SupplierInput')
export class SupplierInput {
  @Field(() => String, { nullable: true }) @IsOptional() @Length(1, 200) name?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsEmail() email?: string;
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

@InputType('StockSiteInput')
export class StockSiteInput {
  @Field(() => String, { nullable: true }) @IsOptional() @Length(1, 200) name?: string;
  @Field(() => String, { nullable: true }) subsidiaryId?: string;
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

@InputType('ProductInput')
export class ProductInput {
  @Field(() => String, { nullable: true }) @IsOptional() @Length(1, 300) name?: string;
  @Field(() => String, { nullable: true }) brand?: string;
  @Field(() => String, { nullable: true }) category?: string;
  @Field(() => ProductType, { nullable: true }) productType?: ProductType;
  @Field(() => Float, { nullable: true }) unitPrice?: number;
  @Field(() => Float, { nullable: true }) salesPrice?: number;
  @Field(() => String, { nullable: true }) currency?: string;
  @Field(() => String, { nullable: true }) imageBlobId?: string;
  @Field(() => UnitOfMeasurement, { nullable: true }) baseUnit?: UnitOfMeasurement;
  @Field(() => [UnitOfMeasurement], { nullable: true }) unitsOfMeasurement?: UnitOfMeasurement[];
  @Field(() => [FileAsset], { nullable: true }) imageAssets?: FileAsset[];
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
