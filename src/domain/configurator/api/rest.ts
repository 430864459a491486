import { familyRoutes } from '../../../rest/family-routes';
import { body, fromRequest, type RestRoute } from '../../../rest/route';
import { searchFromQuery } from '../../../rest/search-params';
import { typeProductCoverages } from './type-product-coverages';
import { concepts } from './concepts';

export const configuratorRoutes: RestRoute[] = [
  ...familyRoutes(concepts, '/concepts', ['create', 'update', 'S1', 'S2', 'S3', 'S5', 'S10', 'bulk-delete']),
  {
    method: 'GET',
    path: '/concepts/tenant/list',
    field: 'allConcepts',
    code: 'custom',
    summary: 'Every concept of the tenant',
  },
  ...familyRoutes(typeProductCoverages, '/type-product-coverages', [
    'S1',
    'S2',
    'S4',
    'S6',
    'S7',
    'S8',
    'S9',
  ]),
  {
    method: 'POST',
    path: '/type-product-coverages/calculate/{typeId}',
    field: 'calculateTypeProductCoverage',
    code: 'custom',
    summary: 'Queue coverage calculation jobs for a type (one per static model)',
  },
  {
    method: 'POST',
    path: '/type-product-coverages/create-products',
    field: 'createProductsForTypeProductCoverages',
    args: { input: fromRequest(searchFromQuery, 'query') },
    code: 'custom',
    summary: 'Create and link products for unlinked coverages of a search page; returns how many',
  },
  {
    method: 'POST',
    path: '/type-product-coverages/find-by-names/{typeId}',
    field: 'typeProductCoveragesByNames',
    args: { names: body([]) },
    code: 'custom',
    summary: 'Coverages of a type by product names',
  },
  {
    method: 'POST',
    path: '/types/variables/resolve/{typeId}',
    field: 'resolveTypeVariables',
    args: { selection: body([]) },
    code: 'custom',
    summary: 'Resolve every variable of a type for the chosen codes',
  },
  {
    method: 'GET',
    path: '/types/variables/{typeId}/search',
    field: 'searchTypeVariables',
    code: 'custom',
    summary: 'Variables of a type whose id contains the search text',
  },
  {
    method: 'GET',
    path: '/types/variables/{typeId}/{variableId}',
    field: 'typeVariable',
    code: 'custom',
    summary: 'One variable of a type with its decision tree',
  },
  {
    method: 'PUT',
    path: '/types/variables/{typeId}/{variableId}',
    field: 'updateTypeVariable',
    args: { input: body() },
    code: 'custom',
    summary: 'Rename or re-phase a variable of a type',
  },
  {
    method: 'DELETE',
    path: '/types/variables/{typeId}/{variableId}',
    field: 'deleteTypeVariable',
    code: 'custom',
    summary: 'Remove a variable from a type',
  },
];
