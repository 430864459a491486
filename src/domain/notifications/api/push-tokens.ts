import { Field, InputType } from 'type-graphql';
import { IsOptional, Length } from 'class-validator';
import { callerOf, type Context } from '../../../context';
import { deletionEntry } from '../../../history/deletion-entry';
import { PushPlatform, PushToken, PUSH_TOKEN_DOCS } from '../entities/push-token';
import { notFound } from '../../../errors';
import { isUuid } from '../../../limits';
import { normalisedSubscription } from '../push-subscription';
import { activeEventSettings } from '../../../events/settings';

@InputType({ description: 'A device to send push notifications to.' })
export class PushTokenInput {
  @Field(() => PushPlatform, { description: PUSH_TOKEN_DOCS.platform })
  platform!: PushPlatform;

  @Field(() => String, {
    description:
      "The device's push token: FCM's registration token (ANDROID), APNs' device token (IOS), or the browser's PushSubscription as JSON (WEB).",
  })
  @Length(1, 4096)
  token!: string;

  @Field(() => String, { nullable: true, description: PUSH_TOKEN_DOCS.deviceName })
  @IsOptional()
  @Length(0, 200)
  deviceName?: string;

  @Field(() => String, { nullable: true, description: 'Version of the app.' })
  @IsOptional()
  @Length(0, 50)
  appVersion?: string;
}

@InputType({ description: 'The token of a device to forget.' })
export class PushTokenRemoval {
  @Field(() => String, { description: 'The push token to remove.' })
  @Length(1, 4096)
  token!: string;
}

/**
 * Registering is an upsert by token: a token names a device, and a device belongs to whoever
 * signed in on it last, so registering a known token moves it to the caller.
 */
export async function registerPushToken(ctx: Context, input: PushTokenInput): Promise<PushToken> {
  const caller = callerOf(ctx);
  const now = new Date();
  const value =
    input.platform === PushPlatform.WEB
      ? normalisedSubscription(input.token, activeEventSettings().allowPrivateTargets)
      : input.token;
  const existing = await ctx.em.findOne(PushToken, { token: value });
  const token = existing ?? ctx.em.create(PushToken, { tenantId: caller.tenantId, token: value } as never);
  token.userId = caller.userId;
  token.platform = input.platform;
  if (input.deviceName !== undefined) token.deviceName = input.deviceName;
  if (input.appVersion !== undefined) token.appVersion = input.appVersion;
  token.lastUsed = now;
  await ctx.em.flush();
  return token;
}

export async function myPushToken(ctx: Context, id: string): Promise<PushToken | null> {
  if (!isUuid(id)) return null;
  return ctx.em.findOne(PushToken, { id, userId: callerOf(ctx).userId });
}

export function myPushTokens(ctx: Context): Promise<PushToken[]> {
  return ctx.em.find(PushToken, { userId: callerOf(ctx).userId }, { orderBy: { created: 'asc', id: 'asc' } });
}

/** Forgets one of the caller's devices; a token the caller does not hold is a 404. */
export async function unregisterPushToken(ctx: Context, token: string): Promise<boolean> {
  const caller = callerOf(ctx);
  // A browser's subscription may come back with its fields in another order: its normal form too.
  const forms = [token];
  try {
    forms.push(normalisedSubscription(token, true));
  } catch {
    // not a subscription: the token as given
  }
  const found = await ctx.em.findOne(PushToken, { token: { $in: forms }, userId: caller.userId });
  if (!found) throw notFound('you have no such push token');
  deletionEntry(ctx.em, caller.tenantId, PushToken.name, found);
  ctx.em.remove(found);
  await ctx.em.flush();
  return true;
}
