import type { DomainModule } from '../../modules';
import { notificationEntities } from './entities';
import { notificationsRoutes } from './api/rest';
import { notifications } from './api/notifications';
import { NotificationResolver, NotificationSettingsResolver, PushTokenResolver } from './api/resolver';
import { DigestResolver } from './api/digest';
import { AnnouncementResolver } from './api/announcements';
import { lookAheadForRecipients } from './look-ahead';

/** Notifications, push tokens and notification settings. */
export const notificationsModule: DomainModule = {
  entities: notificationEntities,
  groups: [notifications],
  resolvers: [
    NotificationResolver,
    PushTokenResolver,
    NotificationSettingsResolver,
    DigestResolver,
    AnnouncementResolver,
  ],
  routes: notificationsRoutes,
  writeHooks: [lookAheadForRecipients],
};
