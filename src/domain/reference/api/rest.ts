import { familyRoutes } from '../../../rest/family-routes';
import type { RestRoute } from '../../../rest/route';
import { customers } from './groups';

/**
 * Customers over REST: the specification has no operations for them, so the whole standard family
 * is an extension, for clients that keep the buyer's address and VAT number an invoice shows.
 */
export const referenceRoutes: RestRoute[] = familyRoutes(customers, '/customers', [
  'create',
  'update',
  'S1',
  'S2',
  'S3',
  'S5',
  'S6',
  'S7',
  'S8',
  'S9',
  'S10',
]).map((route) => ({ ...route, extension: true }));
