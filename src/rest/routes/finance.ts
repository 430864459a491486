import { taxPercentages } from '../../resolvers/finance/tax-percentages';
import { familyRoutes } from '../family-routes';
import { body, type RestRoute } from '../route';

export const financeRoutes: RestRoute[] = [
  ...familyRoutes(taxPercentages, '/tax-percentages', [
    'create',
    'S1',
    'S2',
    'S3',
    'S5',
    'S10',
    'bulk-delete',
  ]),
  {
    method: 'PATCH',
    path: '/tax-percentages/{id}',
    field: 'updateTaxPercentage',
    args: { input: body() },
    code: 'custom',
    summary: 'Change a tax rate',
  },
];
