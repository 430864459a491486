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
  @Field(() => String, { description: "The employee's first name.", nullable: true })
  @IsOptional()
  @Length(0, 100)
  firstName?: string;
  @Field(() => String, { description: "The employee's last name.", nullable: true })
  @IsOptional()
  @Length(0, 100)
  lastName?: string;
  @Field(() => String, { description: "The employee's e-mail address.", nullable: true })
  @IsOptional()
  @IsEmail()
  email?: string;
  @Field(() => String, { description: "The employee's job title.", nullable: true })
  @IsOptional()
  @Length(0, 200)
  jobTitle?: string;
  @Field(() => String, { description: "The employee's department.", nullable: true })
  @IsOptional()
  @Length(0, 200)
  department?: string;
  @Field(() => String, { description: "Id of the employee's picture.", nullable: true }) avatar?: string;
  @Field(() => String, { description: "The employee's phone number.", nullable: true }) phone?: string;
  @Field(() => String, { description: "Id of the employee's user, if they have one.", nullable: true })
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
  @Field(() => String, { description: 'Name of the customer.', nullable: true })
  @IsOptional()
  @Length(1, 200)
  name?: string;
  @Field(() => String, { description: "The customer's e-mail address.", nullable: true })
  @IsOptional()
  @IsEmail()
  email?: string;
  @Field(() => String, { description: "The customer's phone number.", nullable: true }) phone?: string;
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
  @Field(() => String, { description: 'Name of the opportunity.', nullable: true })
  @IsOptional()
  @Length(1, 200)
  name?: string;
  @Field(() => Float, { description: 'Expected value.', nullable: true }) value?: number;
  @Field(() => String, { description: 'Id of the customer.', nullable: true }) customerId?: string;
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
  @Field(() => String, { description: 'Name of the subsidiary.', nullable: true })
  @IsOptional()
  @Length(1, 200)
  name?: string;
  @Field(() => String, { description: 'Colour shown for the subsidiary (CSS colour).', nullable: true })
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
  @Field(() => String, { description: 'Name of the supplier.', nullable: true })
  @IsOptional()
  @Length(1, 200)
  name?: string;
  @Field(() => String, { description: "The supplier's e-mail address.", nullable: true })
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
  @Field(() => String, { description: 'Name of the stock site.', nullable: true })
  @IsOptional()
  @Length(1, 200)
  name?: string;
  @Field(() => String, { description: 'Id of the subsidiary the site belongs to.', nullable: true })
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
  @Field(() => String, { description: 'Name of the product.', nullable: true })
  @IsOptional()
  @Length(1, 300)
  name?: string;
  @Field(() => String, { description: 'Brand of the product.', nullable: true }) brand?: string;
  @Field(() => String, { description: 'Category of the product.', nullable: true }) category?: string;
  @Field(() => ProductType, { description: 'What kind of product it is.', nullable: true })
  productType?: ProductType;
  @Field(() => Float, { description: 'Cost price of one base unit.', nullable: true }) unitPrice?: number;
  @Field(() => Float, { description: 'Sales price of one base unit.', nullable: true }) salesPrice?: number;
  @Field(() => String, { description: 'Currency of the prices.', nullable: true }) currency?: string;
  @Field(() => String, { description: "Id of the product's picture.", nullable: true }) imageBlobId?: string;
  @Field(() => UnitOfMeasurement, { description: 'The unit the product is counted in.', nullable: true })
  baseUnit?: UnitOfMeasurement;
  @Field(() => [UnitOfMeasurement], {
    description: 'Units the product is counted, bought or sold in.',
    nullable: true,
  })
  unitsOfMeasurement?: UnitOfMeasurement[];
  @Field(() => [FileAsset], { description: 'Pictures of the product.', nullable: true })
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
