import { Notification } from '../entities/notification';
import { callerOf } from '../../../context';
import { defineGroup } from '../../../family/group';
import { authenticated } from '../../../permissions/rules';
import { addressNotification } from '../delivery';
import { CreateNotificationInput, UpdateNotificationInput } from './notification-inputs';

/**
 * Notifications as their recipient sees them: every family operation but create needs only a
 * credential and reaches only the caller's own delivered notifications (another user's behave
 * as absent). Creating one for a user needs CREATE_NOTIFICATIONS.
 */
export const notifications = defineGroup({
  entity: Notification,
  name: 'Notification',
  plural: 'Notifications',
  resource: 'NOTIFICATIONS',
  createInput: CreateNotificationInput,
  updateInput: UpdateNotificationInput,
  searchable: ['title', 'body', 'sender'],
  booleanPairs: [['read', 'isRead']],
  rules: { READ: authenticated, UPDATE: authenticated, DELETE: authenticated },
  visibleWhere: (ctx) => ({ userId: callerOf(ctx).userId, delivered: true }),
  async beforeSave(ctx, notification, input, isNew) {
    if (isNew) await addressNotification(ctx, notification, input);
  },
});
