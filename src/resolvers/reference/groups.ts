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
import { AUDIT_FIELDS } from '../../family/fields';

/**
 * Reference records that documented records point at (owners, customers, products, sites...).
 * The specification has no REST operations for them; GraphQL has the full family, so a front end
 * can build every record a REST client reads. Create and update inputs share one shape: on
 * update, absent fields stay as they are.
 */

@InputType('EmployeeInput', { description: 'An employee, as sent.' })
export class EmployeeInput {
  @Field(() => String, { nullable: true, description: "The employee's first name." })
  @IsOptional()
  @Length(0, 100)
  firstName?: string;
  @Field(() => String, { nullable: true, description: "The employee's last name." })
  @IsOptional()
  @Length(0, 100)
  lastName?: string;
  @Field(() => String, { nullable: true, description: "The employee's e-mail address." })
  @IsOptional()
  @IsEmail()
  email?: string;
  @Field(() => String, { nullable: true, description: "The employee's job title." })
  @IsOptional()
  @Length(0, 200)
  jobTitle?: string;
  @Field(() => String, { nullable: true, description: "The employee's department." })
  @IsOptional()
  @Length(0, 200)
  department?: string;
  @Field(() => String, { nullable: true, description: "Id of the employee's picture." }) avatar?: string;
  @Field(() => String, { nullable: true, description: "The employee's phone number." }) phone?: string;
  @Field(() => String, { nullable: true, description: "Id of the employee's user, if they have one." })
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
  filterable: [...AUDIT_FIELDS, 'firstName', 'lastName', 'email', 'jobTitle', 'department', 'userId'],
});

@InputType('CustomerInput', { description: 'A customer, as sent.' })
export class CustomerInput {
  @Field(() => String, { nullable: true, description: 'Name of the customer.' })
  @IsOptional()
  @Length(1, 200)
  name?: string;
  @Field(() => String, { nullable: true, description: "The customer's e-mail address." })
  @IsOptional()
  @IsEmail()
  email?: string;
  @Field(() => String, { nullable: true, description: "The customer's phone number." }) phone?: string;
}
export const customers = defineGroup({
  entity: Customer,
  name: 'Customer',
  plural: 'Customers',
  resource: 'CUSTOMERS',
  createInput: CustomerInput,
  updateInput: CustomerInput,
  searchable: ['name', 'email', 'phone'],
  filterable: [...AUDIT_FIELDS, 'name', 'email', 'phone'],
});

@InputType('OpportunityInput', { description: 'An opportunity, as sent.' })
export class OpportunityInput {
  @Field(() => String, { nullable: true, description: 'Name of the opportunity.' })
  @IsOptional()
  @Length(1, 200)
  name?: string;
  @Field(() => Float, { nullable: true, description: 'Expected value.' }) value?: number;
  @Field(() => String, { nullable: true, description: 'Id of the customer.' }) customerId?: string;
}
export const opportunities = defineGroup({
  entity: Opportunity,
  name: 'Opportunity',
  plural: 'Opportunities',
  resource: 'OPPORTUNITIES',
  createInput: OpportunityInput,
  updateInput: OpportunityInput,
  searchable: ['name'],
  filterable: [...AUDIT_FIELDS, 'name', 'value', 'customerId'],
});

@InputType('SubsidiaryInput', { description: 'A subsidiary, as sent.' })
export class SubsidiaryInput {
  @Field(() => String, { nullable: true, description: 'Name of the subsidiary.' })
  @IsOptional()
  @Length(1, 200)
  name?: string;
  @Field(() => String, { nullable: true, description: 'Colour shown for the subsidiary (CSS colour).' })
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
  filterable: [...AUDIT_FIELDS, 'name', 'color'],
});

@InputType('SupplierInput', { description: 'A supplier, as sent.' })
export class SupplierInput {
  @Field(() => String, { nullable: true, description: 'Name of the supplier.' })
  @IsOptional()
  @Length(1, 200)
  name?: string;
  @Field(() => String, { nullable: true, description: "The supplier's e-mail address." })
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
  filterable: [...AUDIT_FIELDS, 'name', 'email'],
});

@InputType('StockSiteInput', { description: 'A stock site, as sent.' })
export class StockSiteInput {
  @Field(() => String, { nullable: true, description: 'Name of the stock site.' })
  @IsOptional()
  @Length(1, 200)
  name?: string;
  @Field(() => String, { nullable: true, description: 'Id of the subsidiary the site belongs to.' })
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
  filterable: [...AUDIT_FIELDS, 'name', 'subsidiaryId'],
  scope: 'subsidiaryId',
});

@InputType('ProductInput', { description: 'A product, as sent.' })
export class ProductInput {
  @Field(() => String, { nullable: true, description: 'Name of the product.' })
  @IsOptional()
  @Length(1, 300)
  name?: string;
  @Field(() => String, { nullable: true, description: 'Brand of the product.' }) brand?: string;
  @Field(() => String, { nullable: true, description: 'Category of the product.' }) category?: string;
  @Field(() => ProductType, { nullable: true, description: 'What kind of product it is.' })
  productType?: ProductType;
  @Field(() => Float, { nullable: true, description: 'Cost price of one base unit.' }) unitPrice?: number;
  @Field(() => Float, { nullable: true, description: 'Sales price of one base unit.' }) salesPrice?: number;
  @Field(() => String, { nullable: true, description: 'Currency of the prices.' }) currency?: string;
  @Field(() => String, { nullable: true, description: "Id of the product's picture." }) imageBlobId?: string;
  @Field(() => UnitOfMeasurement, { nullable: true, description: 'The unit the product is counted in.' })
  baseUnit?: UnitOfMeasurement;
  @Field(() => [UnitOfMeasurement], {
    nullable: true,
    description: 'Units the product is counted, bought or sold in.',
  })
  unitsOfMeasurement?: UnitOfMeasurement[];
  @Field(() => [FileAsset], { nullable: true, description: 'Pictures of the product.' })
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
  filterable: [
    ...AUDIT_FIELDS,
    'name',
    'brand',
    'category',
    'productType',
    'unitPrice',
    'salesPrice',
    'currency',
  ],
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
