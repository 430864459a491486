import { callerOf } from '../../context';
import { Activity } from '../../entities/crm/activity';
import { Customer } from '../../entities/reference/customer';
import { Opportunity } from '../../entities/reference/opportunity';
import { User } from '../../entities/user';
import { defineGroup } from '../../family/group';
import { checkRefs, refsIn } from '../../family/references';
import { CreateActivityInput, UpdateActivityInput } from './activity-inputs';

export const activities = defineGroup({
  entity: Activity,
  name: 'Activity',
  plural: 'Activities',
  resource: 'ACTIVITIES',
  createInput: CreateActivityInput,
  updateInput: UpdateActivityInput,
  searchable: ['subject', 'contactName', 'contactEmail'],
  booleanPairs: [['completed', 'isCompleted']],
  async beforeSave(ctx, activity, input, isNew) {
    if (isNew && input.ownerId === undefined) activity.ownerId = callerOf(ctx).userId;
    await checkRefs(
      ctx,
      404,
      refsIn(input, [
        ['customerId', Customer],
        ['opportunityId', Opportunity],
        ['ownerId', User],
      ]),
    );
    // completedAt records when the activity was done: stamped on completion unless the client
    // says when, and cleared when the activity is reopened.
    if (activity.completed && !activity.completedAt) activity.completedAt = new Date();
    if (!activity.completed && input.completed === false && input.completedAt === undefined)
      activity.completedAt = null;
  },
});
