import type { DomainModule } from '../../modules';
import { referenceEntities } from './entities';
import { referenceGroups } from './api/groups';
import { referenceRoutes } from './api/rest';

/** The groups other modules' services read (a transfer's sites, a stock line's product). */
export { products, stockSites } from './api/groups';

/** Reference records the documented ones point at: employees, customers, products ... */
export const referenceModule: DomainModule = {
  entities: referenceEntities,
  groups: referenceGroups,
  resolvers: [],
  routes: referenceRoutes,
};
