import { Field, InputType } from 'type-graphql';
import { ArrayMaxSize, IsOptional } from 'class-validator';
import type { Context } from '../../../context';
import { NotificationCategory } from '../entities/notification';
import {
  DigestFrequency,
  NotificationSettings,
  NOTIFICATION_SETTINGS_DOCS,
} from '../entities/notification-settings';
import { settingsOf } from '../delivery';
import { checkScopes, NOTIFICATION_SCOPES } from '../scopes';

@InputType({ description: 'Notification preferences; absent fields stay as they are.' })
export class NotificationSettingsInput {
  @Field(() => DigestFrequency, { nullable: true, description: NOTIFICATION_SETTINGS_DOCS.digestFrequency })
  digestFrequency?: DigestFrequency;

  @Field(() => [String], { nullable: true, description: 'Scopes of the catalog to switch off.' })
  @IsOptional()
  @ArrayMaxSize(NOTIFICATION_SCOPES.length)
  disabledScopes?: string[];

  @Field(() => [NotificationCategory], {
    nullable: true,
    description: NOTIFICATION_SETTINGS_DOCS.enabledCategories,
  })
  enabledCategories?: NotificationCategory[];

  @Field(() => Boolean, {
    nullable: true,
    description: NOTIFICATION_SETTINGS_DOCS.inAppNotificationsEnabled,
  })
  inAppNotificationsEnabled?: boolean;

  @Field(() => Boolean, { nullable: true, description: NOTIFICATION_SETTINGS_DOCS.pushNotificationsEnabled })
  pushNotificationsEnabled?: boolean;

  @Field(() => Boolean, { nullable: true, description: NOTIFICATION_SETTINGS_DOCS.emailNotificationsEnabled })
  emailNotificationsEnabled?: boolean;
}

export async function updateSettings(
  ctx: Context,
  input: NotificationSettingsInput,
): Promise<NotificationSettings> {
  if (input.disabledScopes) checkScopes('disabledScopes', input.disabledScopes);
  const settings = await settingsOf(ctx);
  if (input.digestFrequency != null) settings.digestFrequency = input.digestFrequency;
  if (input.disabledScopes != null) settings.disabledScopes = [...new Set(input.disabledScopes)];
  if (input.enabledCategories != null) settings.enabledCategories = [...new Set(input.enabledCategories)];
  if (input.inAppNotificationsEnabled != null)
    settings.inAppNotificationsEnabled = input.inAppNotificationsEnabled;
  if (input.pushNotificationsEnabled != null)
    settings.pushNotificationsEnabled = input.pushNotificationsEnabled;
  if (input.emailNotificationsEnabled != null)
    settings.emailNotificationsEnabled = input.emailNotificationsEnabled;
  await ctx.em.flush();
  return settings;
}
