import { Entity, Enum, Unique } from '@mikro-orm/core';
import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { TenantScoped } from '../../../entities/tenant-scoped';
import { BooleanColumn, EnumColumn, TextListColumn, UuidColumn } from '../../../entities/columns';
import { NotificationCategory } from './notification';

export enum DigestFrequency {
  OFF = 'OFF',
  DAILY = 'DAILY',
  WEEKLY = 'WEEKLY',
}
registerEnumType(DigestFrequency, {
  name: 'DigestFrequency',
  description: 'How often a summary of notifications is e-mailed.',
  valuesConfig: {
    OFF: { description: 'No digest (the default).' },
    DAILY: { description: 'A digest every day.' },
    WEEKLY: { description: 'A digest every week.' },
  },
});

/** What NotificationSettings fields mean, shared with the inputs that set them. */
export const NOTIFICATION_SETTINGS_DOCS = {
  digestFrequency: 'How often a digest is sent (default OFF).',
  enabledCategories: 'Categories the user receives (default every category).',
  inAppNotificationsEnabled: 'True to show notifications in the app (default true).',
  pushNotificationsEnabled: 'True to send push notifications (default true).',
  emailNotificationsEnabled: 'True to send notifications by e-mail.',
} as const;

/** One user's notification preferences; made with the defaults on first use. */
@Entity({ tableName: 'notification_settings' })
@Unique({ name: 'notification_settings_tenant_user_id_uq', properties: ['tenantId', 'userId'] })
@ObjectType({ description: "A user's notification preferences." })
export class NotificationSettings extends TenantScoped {
  @UuidColumn({ nullable: false, description: 'Id of the user the settings belong to.' })
  userId!: string;

  @EnumColumn(() => DigestFrequency, {
    nullable: false,
    description: NOTIFICATION_SETTINGS_DOCS.digestFrequency,
  })
  digestFrequency: DigestFrequency = DigestFrequency.OFF;

  /** Scopes of the catalog the user does not want to hear about. */
  @TextListColumn({ description: 'Scopes the user switched off; their notifications are held back.' })
  disabledScopes: string[] = [];

  @Enum({ items: () => NotificationCategory, array: true })
  @Field(() => [NotificationCategory], {
    description: NOTIFICATION_SETTINGS_DOCS.enabledCategories,
  })
  enabledCategories: NotificationCategory[] = Object.values(NotificationCategory);

  @BooleanColumn({ nullable: false, description: NOTIFICATION_SETTINGS_DOCS.inAppNotificationsEnabled })
  inAppNotificationsEnabled: boolean = true;

  @BooleanColumn({ nullable: false, description: NOTIFICATION_SETTINGS_DOCS.pushNotificationsEnabled })
  pushNotificationsEnabled: boolean = true;

  /** Each notification accepted by the categories and scopes is also e-mailed (docs/events.md). */
  @BooleanColumn({ nullable: false, description: NOTIFICATION_SETTINGS_DOCS.emailNotificationsEnabled })
  emailNotificationsEnabled: boolean = false;
}
