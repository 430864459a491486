import { Customer } from './customer';
import { Employee } from './employee';
import { Opportunity } from './opportunity';
import { Product } from './product';
import { StockSite } from './stock-site';
import { Subsidiary } from './subsidiary';
import { Supplier } from './supplier';

/** Reference records the documented ones point at. */
export const referenceEntities: Function[] = [
  Employee,
  Customer,
  Opportunity,
  Subsidiary,
  Supplier,
  StockSite,
  Product,
];
