import { TypeProductCoverage } from '../entities/type-product-coverage';
import { defineGroup } from '../../../family/group';
import {
  UpdateTypeProductCoverageInput,
  CreateTypeProductCoverageInput,
  prepareCoverage,
} from './type-product-coverage-inputs';

export const typeProductCoverages = defineGroup({
  entity: TypeProductCoverage,
  name: 'TypeProductCoverage',
  plural: 'TypeProductCoverages',
  resource: 'COVERAGES',
  createInput: CreateTypeProductCoverageInput,
  updateInput: UpdateTypeProductCoverageInput,
  searchable: ['productName', 'variantId'],
  beforeSave: prepareCoverage,
});
