import { Concept } from '../entities/concept';
import { defineGroup } from '../../../family/group';
import { CreateConceptInput, UpdateConceptInput } from './concept-inputs';

export const concepts = defineGroup({
  entity: Concept,
  name: 'Concept',
  plural: 'Concepts',
  resource: 'CONCEPTS',
  createInput: CreateConceptInput,
  updateInput: UpdateConceptInput,
  searchable: ['name'],
});
