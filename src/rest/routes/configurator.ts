import { concepts } from '../../resolvers/configurator/concepts';
import { familyRoutes } from '../family-routes';
import { body, type RestRoute } from '../route';

export const configuratorRoutes: RestRoute[] = [
  ...familyRoutes(concepts, '/concepts', ['create', 'S1', 'S2', 'S3', 'S5', 'S10', 'bulk-delete']),
  {
    method: 'PATCH',
    path: '/concepts/{id}',
    field: 'updateConcept',
    args: { input: body() },
    code: 'custom',
    summary: 'Change a concept',
  },
  {
    method: 'GET',
    path: '/concepts/tenant/list',
    field: 'allConcepts',
    code: 'custom',
    summary: 'Every concept of the tenant',
  },
];
