import { Arg, Ctx, Field, ID, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { Context } from '../../../context';
import { Notification, NotificationCategory } from '../entities/notification';
import { NotificationSettings } from '../entities/notification-settings';
import { PushToken } from '../entities/push-token';
import { PageOf, type Page } from '../../../schema/page';
import { authenticated, can, Requires } from '../../../permissions/rules';
import { settingsOf } from '../delivery';
import { NOTIFICATION_SCOPES } from '../scopes';
import { ARG_DOCS } from '../../../schema/descriptions';
import { PageArg } from '../../../schema/args';
import { activeEventSettings } from '../../../events/settings';
import {
  markAllRead,
  markRead,
  myNotifications,
  notificationsOfUsers,
  unreadCount,
} from './notification-service';
import {
  myPushToken,
  myPushTokens,
  PushTokenInput,
  PushTokenRemoval,
  registerPushToken,
  unregisterPushToken,
} from './push-tokens';
import { NotificationScope } from './scope-types';
import { NotificationSettingsInput, updateSettings } from './settings';

@ObjectType({ description: "How many of the caller's notifications are unread." })
export class UnreadCount {
  @Field(() => Int, { description: 'Unread notifications of the caller.' }) count!: number;
}

@ObjectType({ description: 'How many notifications mark-all-read changed.' })
export class MarkAllReadResult {
  @Field(() => Int, { description: 'How many notifications were marked read.' }) updated!: number;
}

const NotificationPage = PageOf(Notification, 'Notification');

/** The category a feed may be limited to, an argument of both feeds. */
const CategoryArg = () =>
  Arg('category', () => NotificationCategory, { nullable: true, description: 'Only this category.' });

@Resolver(() => Notification)
export class NotificationResolver {
  @Requires(authenticated)
  @Query(() => NotificationPage, { description: "The caller's notifications, newest first." })
  myNotifications(
    @Ctx() ctx: Context,
    @PageArg.number() pageNumber?: number,
    @PageArg.size() pageSize?: number,
    @CategoryArg() category?: NotificationCategory,
  ): Promise<Page<Notification>> {
    return myNotifications(ctx, { pageNumber, pageSize, category });
  }

  @Requires(authenticated)
  @Query(() => UnreadCount, { description: "How many of the caller's notifications are unread." })
  async unreadNotificationCount(@Ctx() ctx: Context): Promise<UnreadCount> {
    return { count: await unreadCount(ctx) };
  }

  @Requires(authenticated)
  @Mutation(() => [Notification], {
    description: "Marks the caller's notifications among the ids read; others' ids are ignored.",
  })
  markNotificationsRead(
    @Arg('ids', () => [ID], { description: "Ids of the caller's notifications; others are skipped." })
    ids: string[],
    @Ctx() ctx: Context,
  ): Promise<Notification[]> {
    return markRead(ctx, ids);
  }

  @Requires(authenticated)
  @Mutation(() => MarkAllReadResult, { description: "Marks every one of the caller's notifications read." })
  async markAllNotificationsRead(@Ctx() ctx: Context): Promise<MarkAllReadResult> {
    return { updated: await markAllRead(ctx) };
  }

  @Requires(can('READ', 'NOTIFICATIONS'))
  @Query(() => NotificationPage, {
    description:
      "Administrators' view: notifications of one user (or all users), including those the recipient's settings held back; newest first.",
  })
  userNotifications(
    @Ctx() ctx: Context,
    @Arg('userId', () => ID, { nullable: true, description: 'Id of the user (default every user).' })
    userId?: string,
    @PageArg.number() pageNumber?: number,
    @PageArg.size() pageSize?: number,
    @CategoryArg() category?: NotificationCategory,
  ): Promise<Page<Notification>> {
    return notificationsOfUsers(ctx, userId, { pageNumber, pageSize, category });
  }
}

@ObjectType({ description: "The service's Web Push (VAPID) public key, for subscribing a browser." })
export class WebPushKey {
  @Field(() => String, {
    description:
      "The uncompressed P-256 public key, base64url: pass it as `applicationServerKey` to the browser's `pushManager.subscribe`.",
  })
  publicKey!: string;
}

@Resolver(() => PushToken)
export class PushTokenResolver {
  @Requires(authenticated)
  @Query(() => WebPushKey, {
    nullable: true,
    description: 'The Web Push public key browsers subscribe with; null when Web Push is not configured.',
  })
  webPushKey(): WebPushKey | null {
    const web = activeEventSettings().push.web;
    return web ? { publicKey: web.publicKey } : null;
  }

  @Requires(authenticated)
  @Mutation(() => PushToken, { description: 'Registers a device (an upsert by token).' })
  registerPushToken(
    @Arg('input', () => PushTokenInput, { description: 'The device and its token.' }) input: PushTokenInput,
    @Ctx() ctx: Context,
  ): Promise<PushToken> {
    return registerPushToken(ctx, input);
  }

  @Requires(authenticated)
  @Query(() => PushToken, { nullable: true, description: "One of the caller's devices." })
  pushToken(
    @Arg('id', () => ID, { description: ARG_DOCS.id }) id: string,
    @Ctx() ctx: Context,
  ): Promise<PushToken | null> {
    return myPushToken(ctx, id);
  }

  @Requires(authenticated)
  @Query(() => [PushToken], { description: "The caller's devices." })
  myPushTokens(@Ctx() ctx: Context): Promise<PushToken[]> {
    return myPushTokens(ctx);
  }

  @Requires(authenticated)
  @Mutation(() => Boolean, { description: 'Forgets one of the caller’s devices (404 when it has none).' })
  unregisterPushToken(
    @Arg('input', () => PushTokenRemoval, { description: 'The token to remove.' }) input: PushTokenRemoval,
    @Ctx() ctx: Context,
  ): Promise<boolean> {
    return unregisterPushToken(ctx, input.token);
  }
}

@Resolver(() => NotificationSettings)
export class NotificationSettingsResolver {
  @Requires(authenticated)
  @Query(() => NotificationSettings, { description: "The caller's preferences (defaults on first read)." })
  myNotificationSettings(@Ctx() ctx: Context): Promise<NotificationSettings> {
    return settingsOf(ctx);
  }

  @Requires(authenticated)
  @Mutation(() => NotificationSettings, {
    description: "Changes the caller's notification settings; absent fields stay.",
  })
  updateMyNotificationSettings(
    @Arg('input', () => NotificationSettingsInput, { description: 'The settings to change.' })
    input: NotificationSettingsInput,
    @Ctx() ctx: Context,
  ): Promise<NotificationSettings> {
    return updateSettings(ctx, input);
  }

  @Requires(authenticated)
  @Query(() => [NotificationScope], { description: 'The scope catalog.' })
  notificationScopes(): NotificationScope[] {
    return [...NOTIFICATION_SCOPES];
  }
}
