import { Notification } from './notification';
import { NotificationSettings } from './notification-settings';
import { PushToken } from './push-token';

/** Entities of notifications: notifications, push tokens, settings. */
export const notificationEntities: Function[] = [Notification, PushToken, NotificationSettings];
