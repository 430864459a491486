import type { GroupDef } from '../../../family/group';
import { notifications } from './notifications';
import { NotificationResolver, NotificationSettingsResolver, PushTokenResolver } from './resolver';

/** Groups with the standard family, and other resolvers, of this domain. */
export const notificationsGroups: GroupDef<any, any, any>[] = [notifications];
export const notificationsResolvers: Function[] = [
  NotificationResolver,
  PushTokenResolver,
  NotificationSettingsResolver,
];
