import { TaxPercentage } from '../entities/tax-percentage';
import { defineGroup } from '../../../family/group';
import { CreateTaxPercentageInput, UpdateTaxPercentageInput } from './tax-percentage-inputs';

export const taxPercentages = defineGroup({
  entity: TaxPercentage,
  name: 'TaxPercentage',
  plural: 'TaxPercentages',
  resource: 'TAX_PERCENTAGES',
  createInput: CreateTaxPercentageInput,
  updateInput: UpdateTaxPercentageInput,
  searchable: [],
});
