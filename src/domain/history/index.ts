import type { DomainModule } from '../../modules';
import { historyRoutes } from './api/rest';
import { AuditLogResolver } from './api/audit-log';

/** Records' history and the audit log as GraphQL and REST serve them (the recording is src/history/). */
export const historyModule: DomainModule = {
  entities: [],
  groups: [],
  resolvers: [AuditLogResolver],
  routes: historyRoutes,
};
