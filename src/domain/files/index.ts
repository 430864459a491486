import type { DomainModule } from '../../modules';
import { fileResolvers } from './api/files';
import { fileRoutes } from './api/rest';

/** Stored files: their GraphQL and REST operations (the HTTP routes and backends are src/files/). */
export const filesModule: DomainModule = {
  entities: [],
  groups: [],
  resolvers: fileResolvers,
  routes: fileRoutes,
};
