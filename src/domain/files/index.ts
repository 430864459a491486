import type { DomainModule } from '../../modules';
import { fileResolvers } from './api/files';
import { fileRoutes } from './api/rest';
import { checkFileRefs } from './references';

/**
 * Stored files: their GraphQL and REST operations (the store, HTTP routes and backends are
 * src/files/), and the check of the files every record write names.
 */
export const filesModule: DomainModule = {
  entities: [],
  groups: [],
  resolvers: fileResolvers,
  routes: fileRoutes,
  writeHooks: [checkFileRefs],
};
