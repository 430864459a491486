import { Field, InputType } from 'type-graphql';
import { IsOptional, Length } from 'class-validator';
import { GraphQLJSONObject } from 'graphql-scalars';
import {
  Notification,
  NotificationCategory,
  NotificationType,
  NOTIFICATION_DOCS,
} from '../../entities/notifications/notification';
import { callerOf } from '../../context';
import { defineGroup } from '../../family/group';
import { authenticated } from '../../permissions/rules';
import { addressNotification } from './delivery';

@InputType({ description: 'A notification for one user of the tenant.' })
export class CreateNotificationInput {
  @Field(() => String, { description: "The recipient's e-mail address." })
  @Length(3, 254)
  username!: string;

  @Field(() => String, { description: NOTIFICATION_DOCS.title })
  @Length(1, 500)
  title!: string;

  @Field(() => String, { nullable: true, description: NOTIFICATION_DOCS.body })
  @IsOptional()
  @Length(0, 10_000)
  body?: string;

  @Field(() => NotificationCategory, { nullable: true, description: 'Default SYSTEM.' })
  category?: NotificationCategory;

  @Field(() => NotificationType, { nullable: true, description: 'Default INFO.' })
  notificationType?: NotificationType;

  @Field(() => String, { nullable: true, description: "Default: the caller's e-mail." })
  @IsOptional()
  @Length(1, 254)
  sender?: string;

  @Field(() => String, { nullable: true, description: 'A scope of the catalog.' })
  scope?: string;

  @Field(() => String, { nullable: true, description: NOTIFICATION_DOCS.actionUrl })
  @IsOptional()
  @Length(0, 2000)
  actionUrl?: string;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Any JSON to attach.' })
  metadata?: Record<string, unknown>;
}

@InputType({ description: 'What a recipient may change: whether it is read (either name).' })
export class UpdateNotificationInput {
  @Field(() => Boolean, { nullable: true, description: 'True once read; same as `isRead`.' }) read?: boolean;
  @Field(() => Boolean, { nullable: true, description: NOTIFICATION_DOCS.isRead }) isRead?: boolean;
}

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
