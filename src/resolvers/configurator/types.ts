import { ConfiguratorType } from '../../entities/configurator/configurator-type';
import { defineGroup } from '../../family/group';
import { UpdateConfiguratorTypeInput, CreateConfiguratorTypeInput, prepareType } from './type-inputs';

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
