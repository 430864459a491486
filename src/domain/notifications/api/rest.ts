import { familyRoutes } from '../../../rest/family-routes';
import { body, type RestRoute } from '../../../rest/route';
import { notifications } from './notifications';

/** Notifications (spec 4.11, GET /notifications/me of 4.6, and the family row). */
export const notificationsRoutes: RestRoute[] = [
  ...familyRoutes(notifications, '/notifications', ['create', 'S1', 'S2', 'S3', 'S5', 'S10', 'bulk-delete']),
  {
    method: 'GET',
    path: '/notifications/me',
    field: 'myNotifications',
    code: 'custom',
    summary: "The caller's notifications, newest first",
  },
  {
    method: 'GET',
    path: '/notifications/unread-count',
    field: 'unreadNotificationCount',
    code: 'custom',
    summary: "How many of the caller's notifications are unread",
  },
  {
    method: 'POST',
    path: '/notifications/mark-read',
    field: 'markNotificationsRead',
    args: { ids: body() },
    code: 'custom',
    summary: "Mark some of the caller's notifications read",
  },
  {
    method: 'POST',
    path: '/notifications/mark-all-read',
    field: 'markAllNotificationsRead',
    code: 'custom',
    summary: "Mark all of the caller's notifications read",
  },
  {
    method: 'POST',
    path: '/notifications/push-tokens',
    field: 'registerPushToken',
    args: { input: body() },
    status: 201,
    location: (t: { id: string }) => `/notifications/push-tokens/${t.id}`,
    code: 'custom',
    summary: 'Register a device for push notifications',
  },
  {
    method: 'GET',
    path: '/notifications/push-tokens/{id}',
    field: 'pushToken',
    nullIs404: true,
    code: 'custom',
    extension: true,
    summary: "One of the caller's devices (where a registration's Location points)",
  },
  {
    method: 'GET',
    path: '/notifications/web-push-key',
    field: 'webPushKey',
    nullIs404: true,
    code: 'custom',
    extension: true,
    summary:
      'The Web Push (VAPID) public key a browser subscribes with (404 when Web Push is not configured)',
  },
  {
    method: 'DELETE',
    path: '/notifications/push-tokens',
    field: 'unregisterPushToken',
    args: { input: body() },
    status: 204,
    code: 'custom',
    summary: 'Forget a device',
  },
  {
    method: 'GET',
    path: '/notifications/settings/me',
    field: 'myNotificationSettings',
    code: 'custom',
    summary: "The caller's notification preferences",
  },
  {
    method: 'PUT',
    path: '/notifications/settings/me',
    field: 'updateMyNotificationSettings',
    args: { input: body() },
    code: 'custom',
    summary: "Change the caller's notification preferences",
  },
  {
    method: 'GET',
    path: '/notifications/settings/scopes',
    field: 'notificationScopes',
    code: 'custom',
    summary: 'The scope catalog',
  },
];
