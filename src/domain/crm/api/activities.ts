import { ID } from 'type-graphql';
import { stampActivity } from '../stamps';
import { Activity, ActivityType } from '../entities/activity';
import { defineGroup } from '../../../family/group';
import { checkRefs, refsIn } from '../../../family/references';
import { CRM_RECORD_LINKS } from './record-links';
import { CreateActivityInput, UpdateActivityInput } from './activity-inputs';

export const activities = defineGroup({
  entity: Activity,
  name: 'Activity',
  plural: 'Activities',
  resource: 'ACTIVITIES',
  createInput: CreateActivityInput,
  updateInput: UpdateActivityInput,
  searchable: ['subject', 'contactName', 'contactEmail'],
  lists: [
    {
      name: 'activitiesByCustomer',
      description: 'The activities of a customer, oldest first.',
      field: 'customerId',
      arg: 'customerId',
      argDescription: 'Id of the customer.',
      type: () => ID,
    },
    {
      name: 'activitiesByOpportunity',
      description: 'The activities of an opportunity, oldest first.',
      field: 'opportunityId',
      arg: 'opportunityId',
      argDescription: 'Id of the opportunity.',
      type: () => ID,
    },
    {
      name: 'activitiesByOwner',
      description: 'The activities a user owns, oldest first.',
      field: 'ownerId',
      arg: 'ownerId',
      argDescription: 'Id of the user.',
      type: () => ID,
    },
    {
      name: 'activitiesByType',
      description: 'The activities of one type, oldest first.',
      field: 'type',
      arg: 'type',
      argDescription: 'The kind of activity.',
      type: () => ActivityType,
    },
  ],
  booleanPairs: [['completed', 'isCompleted']],
  async beforeSave(ctx, activity, input, isNew) {
    await checkRefs(ctx, 404, refsIn(input, CRM_RECORD_LINKS));
    stampActivity(ctx, activity, input, isNew);
  },
});
