import { ConfiguratorType } from '../entities/configurator-type';
import { defineGroup } from '../../../family/group';
import { prepareType } from '../type-rules';
import { UpdateConfiguratorTypeInput, CreateConfiguratorTypeInput } from './type-inputs';

export const configuratorTypes = defineGroup({
  entity: ConfiguratorType,
  name: 'ConfiguratorType',
  plural: 'ConfiguratorTypes',
  resource: 'TYPES',
  createInput: CreateConfiguratorTypeInput,
  updateInput: UpdateConfiguratorTypeInput,
  searchable: ['name', 'concept'],
  beforeSave: prepareType,
});
