import { Entity, Enum, Property, Unique } from '@mikro-orm/core';
import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { TenantScoped } from '../tenant-scoped';
import { NotificationCategory } from './notification';

export enum DigestFrequency {
  OFF = 'OFF',
  DAILY = 'DAILY',
  WEEKLY = 'WEEKLY',
}
registerEnumType(DigestFrequency, {
  name: 'DigestFrequency',
  description: 'How often a summary of notifications is e-mailed.',
});

/** One user's notification preferences; made with the defaults on first use. */
@Entity({ tableName: 'notification_settings' })
@Unique({ name: 'notification_settings_tenant_user_id_uq', properties: ['tenantId', 'userId'] })
@ObjectType({ description: "A user's notification preferences." })
export class NotificationSettings extends TenantScoped {
  @Property({ type: 'uuid' })
  @Field(() => String)
  userId!: string;

  @Enum({ items: () => DigestFrequency })
  @Field(() => DigestFrequency)
  digestFrequency: DigestFrequency = DigestFrequency.OFF;

  /** Scopes of the catalog the user does not want to hear about. */
  @Property({ type: 'text[]' })
  @Field(() => [String])
  disabledScopes: string[] = [];

  @Enum({ items: () => NotificationCategory, array: true })
  @Field(() => [NotificationCategory])
  enabledCategories: NotificationCategory[] = Object.values(NotificationCategory);

  @Property({ type: 'boolean' })
  @Field(() => Boolean)
  inAppNotificationsEnabled: boolean = true;

  @Property({ type: 'boolean' })
  @Field(() => Boolean)
  pushNotificationsEnabled: boolean = true;

  /** Each notification accepted by the categories and scopes is also e-mailed (docs/events.md). */
  @Property({ type: 'boolean' })
  @Field(() => Boolean)
  emailNotificationsEnabled: boolean = false;
}
